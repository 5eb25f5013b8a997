/**
 * Text folding (src/lib/text-match.ts), the meaning of every free-text search and keyword rule: lowercase, without
 * diacritics. Its fast path (one character at a time, from a memo) must give what the definition gives (decomposed,
 * combining marks removed, lowercase) for every character of the Basic Multilingual Plane, alone and among others,
 * with combining marks among them, and for text beyond (surrogate pairs) the definition itself.
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
    'gives what the definition gives for every character to U+FFFF, alone, among others and before a mark';
  it(everyCharacter, () => {
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue; // halves of a pair: below, whole
      const ch = String.fromCharCode(code);
      for (const text of [ch, `Á${ch}b`, `x${ch}${ch}Ç`, `Σ${ch}Σ ${ch}`, `a${ch}\u0301`, `\u0316${ch}\u0345`])
        expect(fold(text), `U+${code.toString(16)}`).toBe(definition(text));
    }
  });

  it('gives what the definition gives beyond Latin-1: combining marks, ligatures, other scripts', () => {
    const texts = ['Sa\u0303o Joa\u0303o', 'ÉVORA ẞ ﬁ', 'İstanbul Œuvre', 'Ωμέγα ΣΟΦΌΣ', 'Łódź', '北京 café'];
    for (const text of [...texts, '𝔄𝔅 € – …', 'ΟΔΟΣ Σ', 'ẞ\u0307', 'Ά\u0345ΣΣ']) {
      expect(fold(text)).toBe(definition(text));
    }
  });
});
