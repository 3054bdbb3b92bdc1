// A file that cannot be read at all (ADR 0064: exit 2): a CSV header naming no `type`, a
// UTF-16 file, an XML encoding Shelfmark does not decode. The message starts with where the
// problem is ("line 1: …"); the command puts the file's name before it.
export class UnreadableFileError extends Error {}
