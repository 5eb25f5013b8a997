/** A comma-separated list as the command line and the console's forms take one: trimmed, empty entries dropped. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
