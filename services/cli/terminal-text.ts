/**
 * Text from county files printed on an operator's terminal. A raw row is whatever a county or a
 * bidder typed: an ESC sequence in it can recolour or clear the screen, retitle the window, or
 * (with some terminals) write to the clipboard; a bidi override makes `$100` read as `001$` and
 * hides what follows; a carriage return overwrites the start of its line.
 * Every such character is shown as a visible escape instead: C0 controls, DEL, C1 controls
 * (which include the one-byte CSI), the line and paragraph separators, and the bidi controls.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => NAMED[c] ?? escapeCode(c.charCodeAt(0)));
}

function escapeCode(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * JSON.stringify escapes C0 but writes DEL, C1 and the bidi controls as they are; written as
 * \u escapes the document means the same to a parser and is safe on a terminal.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
