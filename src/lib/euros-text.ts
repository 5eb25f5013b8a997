/**
 * Amounts in euros as the service's texts write them, Portuguese and English: signal texts (detect/format.ts) and
 * integrity reasons alike, so that one amount reads one way in each language. Written by hand (not Intl) so that
 * the same data gives the same bytes on every Node build, whatever its ICU data.
 */

export type Lang = 'pt' | 'en';

/** Digits grouped by three with `sep`. */
export function grouped(whole: number, sep: string): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}

/** `1 234 567,89 €` / `€1,234,567.89`; whole euros without decimals. */
export function euros(amount: number, lang: Lang): string {
  const negative = amount < 0;
  const cents = Math.round(Math.abs(amount) * 100);
  const whole = Math.floor(cents / 100);
  const fraction = cents % 100;
  const decimals = fraction === 0 ? '' : `${lang === 'pt' ? ',' : '.'}${String(fraction).padStart(2, '0')}`;
  const sign = negative ? '-' : '';
  return lang === 'pt' ? `${sign}${grouped(whole, ' ')}${decimals} €` : `${sign}€${grouped(whole, ',')}${decimals}`;
}
