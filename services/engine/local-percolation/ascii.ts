/** ASCII text: where lowercasing and the engine's accent folding change nothing the worker would not. */
export function isAscii(text: string): boolean {
  return !/\P{ASCII}/u.test(text);
}
