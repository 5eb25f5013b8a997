/**
 * Public bodies named after a Portuguese preposition take their article (lib/portuguese-articles.ts): what a
 * Portuguese reader of a signal's summary sees.
 */
import { describe, expect, it } from 'vitest';
import {
  inPlace,
  inPlaceStart,
  inPlaces,
  ofName,
  subjectName,
  toName,
  withArticle,
} from '../src/lib/portuguese-articles.js';

describe('Portuguese articles before a body’s name', () => {
  it('contracts de and a with the article of the first word', () => {
    expect(ofName('Município de Lisboa')).toBe('do Município de Lisboa');
    expect(ofName('Câmara Municipal do Porto')).toBe('da Câmara Municipal do Porto');
    expect(ofName('Serviços Municipalizados de Loures')).toBe('dos Serviços Municipalizados de Loures');
    expect(ofName('Águas do Norte, S.A.')).toBe('das Águas do Norte, S.A.');
    expect(toName('Município de Braga')).toBe('ao Município de Braga');
    expect(toName('Junta de Freguesia de Arroios')).toBe('à Junta de Freguesia de Arroios');
    expect(toName('Infraestruturas de Portugal, S.A.')).toBe('às Infraestruturas de Portugal, S.A.');
    expect(toName('SERVIÇOS MUNICIPALIZADOS DE SINTRA')).toBe('aos SERVIÇOS MUNICIPALIZADOS DE SINTRA');
  });

  it('leaves a company or a tax number with the bare preposition', () => {
    expect(ofName('Construções Silva, Lda.')).toBe('de Construções Silva, Lda.');
    expect(toName('NIF 500000000')).toBe('a NIF 500000000');
    expect(withArticle('Construções Silva, Lda.')).toBe('Construções Silva, Lda.');
  });

  it('starts a sentence with the article capitalised', () => {
    expect(subjectName('Município de Lisboa')).toBe('O Município de Lisboa');
    expect(subjectName('entidade adjudicante não identificada')).toBe('A entidade adjudicante não identificada');
    expect(subjectName('Construções Silva, Lda.')).toBe('Construções Silva, Lda.');
    expect(subjectName('Serviços Municipalizados de Loures')).toBe('Os Serviços Municipalizados de Loures');
  });

  it('quotes a name without an article as published, its first letter as it is', () => {
    // The real copy's buyer 508184258: the English reason says "iRN - …", the Portuguese one must not say "IRN - …".
    expect(subjectName('iRN - Instituto dos Registos e Notariado')).toBe('iRN - Instituto dos Registos e Notariado');
    expect(subjectName('eSPap - Entidade de Serviços Partilhados')).toBe('eSPap - Entidade de Serviços Partilhados');
  });

  it('puts a municipality that takes an article after em as Portuguese does, and the others bare', () => {
    expect(inPlace('Porto')).toBe('no Porto');
    expect(inPlace('Guarda')).toBe('na Guarda');
    expect(inPlace('Caldas da Rainha')).toBe('nas Caldas da Rainha');
    expect(inPlace('Arcos de Valdevez')).toBe('nos Arcos de Valdevez');
    expect(inPlace('Lisboa')).toBe('em Lisboa');
    expect(inPlace('Porto, Matosinhos')).toBe('em Porto, Matosinhos');
    expect(inPlaces(['Porto', 'Matosinhos', 'Maia'])).toBe('no Porto, em Matosinhos e na Maia');
    expect(inPlaces(['Guarda'])).toBe('na Guarda');
    expect(inPlaces(['Porto', 'Maia', 'Trofa', 'Lisboa', 'Braga', 'Faro'])).toBe(
      'no Porto, na Maia, na Trofa, em Lisboa, em Braga e em mais 1 município',
    );
    expect(inPlaces(['Porto', 'Maia', 'Trofa', 'Lisboa', 'Braga', 'Faro', 'Beja'])).toMatch(/e em mais 2 municípios$/);
    expect(inPlaceStart('Porto')).toBe('No Porto');
    expect(inPlaceStart('Braga')).toBe('Em Braga');
  });
});
