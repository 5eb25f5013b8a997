/**
 * What the real data the project ships is (data/real/, docs/data.md "The first start"): the source label of each
 * real series, as the service shows it, and what the real contracts are. The loaders (src/ingest/real/) and the
 * pages that say which data is real (/docs) read these, so the two never disagree.
 */

/** Indicator key → the source label of its real series: it names the edition and geography of the values. */
export const REAL_SERIES_SOURCES = {
  crime_rate: 'INE 0008074 — Taxa de criminalidade (‰) (DGPJ), NUTS 2013 geography, 2016–2022',
  purchasing_power_index:
    'INE — Estudo sobre o Poder de Compra Concelhio, editions 1993 (the 1993 municipal map), 2011 and 2021 ' +
    '(NUTS 2013 geography); Portugal = 100',
  burnt_area_by_ignition:
    'ICNF — área ardida por concelho de ignição, continente, 1980–2021 (compilação DSSG Portugal)',
} as const;

/** The real contracts: Portal BASE, source `base`. */
export const REAL_CONTRACTS_DESCRIPTION = 'Public contracts published January–February 2024';
