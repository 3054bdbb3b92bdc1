// The raw-byte cases of httpd's Strict request parsing (docs/decisions/0016): what is sent,
// and how the client ends. record-strict-cases.ts sends each to a real Apache and stores what
// it answered and logged in strict-cases.json; strict-cases.test.ts replays them to Shelfmark.
export interface StrictCase {
  readonly name: string;
  readonly request: string;
  /** `half`: the client half-closes after sending; `close`: it closes after 300 ms. */
  readonly end?: 'half' | 'close';
}

const H = 'Host: x\r\n';
const UA = 'User-Agent: ua\r\n';
const REF = 'Referer: http://r/\r\n';
// Requests Apache serves close their connection, so no case waits for a keep-alive timeout.
const CLOSE = 'Connection: close\r\n';
/** A TLS 1.2 ClientHello as `openssl s_client -tls1_2 -servername localhost` sent it (206 bytes). */
const CLIENT_HELLO = Buffer.from(
  '16030100c9010000c5030375809666141e1d588cf954c04e37a8c46c23279e42b7a8fe7f8fbf2c4cd09348000038c02cc030009fcca9cca8ccaac02bc02f009ec024c028006bc023c0270067c00ac0140039c009c0130033009d009c003d003c0035002f00ff010000640000000e000c0000096c6f63616c686f7374000b000403000102000a000c000a001d0017001e00190018002300000016000000170000000d002a0028040305030603080708080809080a080b080408050806040105010601030303010302040205020602',
  'hex',
).toString('latin1');

export const STRICT_CASES: readonly StrictCase[] = [
  { name: 'bare_lf_request_line', request: `GET /ok.php HTTP/1.1\n${H}${UA}${REF}\r\n` },
  { name: 'bare_lf_after_field', request: `GET /ok.php HTTP/1.1\r\n${REF}Host: x\n${UA}\r\n` },
  { name: 'bare_lf_ending_head', request: `GET /ok.php HTTP/1.1\r\n${H}${REF}${UA}\n` },
  { name: 'nul_in_request_line', request: `GET /a\0b HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'garbage_control_bytes', request: '\x01\x02garbage\r\n\r\n' },
  { name: 'two_spaces', request: `GET  /ok.php HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'space_in_target', request: `GET /a b.php HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'tab_separator', request: `GET\t/ok.php HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'leading_space', request: ` GET /ok.php HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'trailing_space', request: `GET /ok.php HTTP/1.1 \r\n${H}${UA}${REF}\r\n` },
  { name: 'control_byte_in_target', request: `GET /a\x01b HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'del_in_target', request: `GET /a\x7fb HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'lower_case_protocol', request: `GET /ok.php http/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'protocol_two_digit_minor', request: `GET /ok.php HTTP/1.10\r\n${H}${UA}${REF}\r\n` },
  { name: 'protocol_not_http', request: `GET /ok.php FOO/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'protocol_http_0_9', request: `GET /ok.php HTTP/0.9\r\n${H}${UA}${REF}\r\n` },
  { name: 'method_not_a_token', request: `G(T /ok.php HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'http09_head', request: 'HEAD /ok.php\r\n\r\n' },
  { name: 'missing_target', request: 'GET\r\n\r\n' },
  { name: 'target_without_slash', request: `GET ok.php HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'fragment', request: `GET /ok.php#top HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'password_in_target', request: `GET http://u:secret@x/ok.php HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'field_value_control_byte', request: `GET /ok.php HTTP/1.1\r\n${H}${REF}User-Agent: u\x01a\r\n\r\n` },
  { name: 'field_value_nul', request: `GET /ok.php HTTP/1.1\r\n${H}${REF}User-Agent: u\0a\r\n\r\n` },
  { name: 'field_value_del_before_referer', request: `GET /ok.php HTTP/1.1\r\n${H}User-Agent: u\x7fa\r\n${REF}\r\n` },
  { name: 'field_without_colon', request: `GET /ok.php HTTP/1.1\r\n${H}${REF}User-Agent ua\r\nAccept: */*\r\n\r\n` },
  { name: 'field_name_space_before_colon', request: `GET /ok.php HTTP/1.1\r\n${H}${REF}User-Agent : ua\r\n\r\n` },
  { name: 'head_field_without_colon', request: `HEAD /ok.php HTTP/1.1\r\n${H}${REF}User-Agent ua\r\n\r\n` },
  { name: 'fold_before_first_field', request: `GET /ok.php HTTP/1.1\r\n ${H}${UA}${REF}\r\n` },
  { name: 'empty_folded_line', request: `GET /ok.php HTTP/1.1\r\n${H}${REF}${UA} \r\n\r\n` },
  { name: 'obs_fold', request: `GET /ok.php HTTP/1.1\r\n${H}User-Agent: one\r\n  two\r\n${REF}${CLOSE}\r\n` },
  { name: 'dotdot_above_root', request: `GET /../../etc/passwd HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'dotdot_encoded_above_root', request: `GET /a/%2e%2e/%2E%2e/x HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'dotdot_absolute_form', request: `GET http://x/../a?q=1 HTTP/1.1\r\n${H}${UA}\r\n` },
  { name: 'bad_percent_escape', request: `GET /ok.php%zz HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'dotdot_from_a_folder', request: `GET /static/../../etc/passwd HTTP/1.1\r\n${H}${UA}${REF}\r\n` },
  { name: 'dotdot_inside_root', request: `GET /a/../ok.php HTTP/1.1\r\n${H}${UA}${REF}${CLOSE}\r\n` },
  { name: 'dotdot_in_query', request: `GET /ok.php?x=/../../ HTTP/1.1\r\n${H}${UA}${REF}${CLOSE}\r\n` },
  { name: 'no_line_end_then_close', request: 'GET /ok.php HT', end: 'close' },
  { name: 'no_line_end_then_half_close', request: 'GET /ok.php HTTP/1.1', end: 'half' },
  { name: 'head_cut_then_half_close', request: `GET /ok.php HTTP/1.1\r\n${H}${REF}${UA}`, end: 'half' },
  // TLS spoken to the plain port: a whole ClientHello (its first LF is byte 77, in the cipher
  // list), and the same cut before that LF — bytes that never form a request line.
  { name: 'tls_client_hello_then_close', request: CLIENT_HELLO, end: 'close' },
  { name: 'tls_hello_without_line_end_then_close', request: CLIENT_HELLO.slice(0, 77), end: 'close' },
  { name: 'tls_hello_without_line_end_then_half_close', request: CLIENT_HELLO.slice(0, 77), end: 'half' },
];
