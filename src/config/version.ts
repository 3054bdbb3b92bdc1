// The server's name and version, as httpd's ServerTokens Full: in the error log's start notice
// and in /server-status. Here, not in main.ts, so the supervisor knows it without loading the
// application.
export const SERVER_VERSION = `Shelfmark/0.1.0 (Node.js ${process.version})`;
