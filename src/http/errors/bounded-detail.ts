// A problem's `detail` is one sentence about this occurrence (RFC 9457), never an echo of what
// the client sent: a parser's message can quote the input (fast-xml-parser names every unclosed
// tag — a 450 KB body of them made a 1.5 MB detail, 2.7 MB as XML). Every detail is cut here,
// whoever wrote it, and says how much was left out; the parsers' messages are cut shorter.

/** The longest detail any problem carries, in UTF-16 code units. */
export const MAX_DETAIL_LENGTH = 1000;
/** The longest part of a parser's message quoted in a detail. */
export const MAX_PARSER_MESSAGE_LENGTH = 200;

/** `text`, or its start and how many characters were left out when it is longer than `max`. */
export function boundedDetail(text: string, max = MAX_DETAIL_LENGTH): string {
  if (text.length <= max) return text;
  // Never cut a surrogate pair in two (the rest would not be valid UTF-8 on the wire).
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

/** A parser's message, quoted in a detail: its first MAX_PARSER_MESSAGE_LENGTH characters. */
export const parserMessage = (message: string): string => boundedDetail(message, MAX_PARSER_MESSAGE_LENGTH);
