/**
 * Text folding (src/lib/text-match.ts), the meaning of every free-text search and keyword rule: lowercase, without
 * diacritics. Its fast path for Latin-1 text must give what the definition gives (decomposed, combining marks
 * removed, lowercase) for every character, alone and among others, and the definition beyond Latin-1.
 */
import { describe, expect, it } from 'vitest';
import { fold } from '../src/lib/text-match.js';

const definition = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

describe('fold', () => {
  it('folds Portuguese words as a reader expects', () => {
    expect(fold('Évora')).toBe('evora');
    expect(fold('São João da Madeira')).toBe('sao joao da madeira');
    expect(fold('INJECÇÃO; COLECTOR P/URINA')).toBe('injeccao; colector p/urina');
    expect(fold('1.º Direito, n.º 2')).toBe('1.º direito, n.º 2');
  });

  const everyCharacter =
    'gives what the definition gives for every character to U+036F (the combining marks), alone and among others';
  it(everyCharacter, () => {
    for (let code = 0; code <= 0x36f; code++) {
      const ch = String.fromCharCode(code);
      for (const text of [ch, `Á${ch}b`, `x${ch}${ch}Ç`])
        expect(fold(text), `U+${code.toString(16)}`).toBe(definition(text));
    }
  });

  it('gives what the definition gives beyond Latin-1: combining marks, ligatures, other scripts', () => {
    for (const text of ['Sa\u0303o Joa\u0303o', 'ÉVORA ẞ ﬁ', 'İstanbul Œuvre', 'Ωμέγα ΣΟΦΌΣ', 'Łódź', '北京 café']) {
      expect(fold(text)).toBe(definition(text));
    }
  });
});
