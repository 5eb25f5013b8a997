/**
 * One hand-tuned model per catalogue indicator. Levels are set for 2021 (or for the year the national curve
 * crosses 0) from the municipality's size and traits; national curves follow the rough shape of the real
 * Portuguese series (the 2012–2014 crisis, the housing boom, the 2020 pandemic, the 2017 fires). Plausible,
 * never real: the demo data must not be mistaken for published statistics.
 */

import type { Profile, Region } from './profile.js';
import type { Model } from './series-model.js';
import { countNoise, events, ratios, yearly } from './series-model.js';

const log10 = Math.log10;
/** Below ~30 000 inhabitants fixed costs and transfers weigh more per inhabitant. */
const smallness = (p: Profile) => Math.min(p.pop, 30_000) / 30_000;
/** A normal draw cut at ±2.5, where a wild offset would push a share against its bound. */
const bounded = (z: number) => Math.max(-2.5, Math.min(2.5, z));

const WITHOUT_FAMILY_DOCTOR: Record<Region, number> = {
  lisboa_metro: 20,
  algarve: 24,
  oeste_tejo: 17,
  alentejo: 11,
  madeira: 12,
  azores: 9,
  centro: 6,
  porto_metro: 2.5,
  norte: 2.2,
};

const IMI_RATES = [0.3, 0.3, 0.3, 0.32, 0.33, 0.35, 0.35, 0.36, 0.38, 0.4, 0.4, 0.45];

const BURNT_AREA: Model = {
  kind: 'mult',
  // Heavy-tailed: most years little burns, some years (2017) a large share of the interior.
  level: (p, z) =>
    p.area *
    0.0035 *
    Math.exp(-3.2 * p.urban + 0.6 * Number(p.region === 'centro' || p.region === 'norte') + 0.6 * z()),
  national: yearly(2011, [0.5, 0.6, 0.9, -0.8, 0.2, 1.1, 2.0, -0.2, 0, 0.3, -0.5, 0.9, -0.4, 1.0, 1.5]),
  noise: 1.1,
  min: 0,
  decimals: 2,
};

export const MODELS: Record<string, Model> = {
  // ── demography ──
  population: {
    kind: 'mult',
    level: (p, z) => p.pop * Math.exp(0.004 * z()),
    // Ageing interior places shrink, metropolitan ones hold or grow.
    trend: (p) => -0.004 - 0.006 * p.age + 0.004 * Number(p.metro),
    trendSpread: 0.003,
    wave: 0.002,
    noise: 0.0015,
    decimals: 0,
  },
  birth_rate: {
    kind: 'mult',
    level: (p, z) => 7.7 * Math.exp(-0.25 * p.age + 0.1 * Number(p.region === 'azores') + 0.08 * z()),
    national: ratios(2011, [9.2, 8.5, 7.9, 7.9, 8.3, 8.4, 8.4, 8.5, 8.4, 8.2, 7.7, 8.0, 8.1, 8.0, 8.0], 7.7),
    noise: events(0.008),
    min: 0,
    max: 30,
    decimals: 2,
  },
  mortality_rate: {
    kind: 'mult',
    level: (p, z) => 12 * Math.exp(0.22 * p.age + 0.05 * z()),
    national: ratios(
      2011,
      [9.7, 10.2, 10.2, 10.1, 10.5, 10.7, 10.9, 11.0, 10.9, 12.0, 12.3, 11.9, 11.3, 11.2, 11.3],
      12.3,
    ),
    noise: events(0.011),
    min: 0,
    max: 40,
    decimals: 2,
  },
  natural_increase_rate: {
    kind: 'add',
    level: () => 0,
    derive: { from: ['birth_rate', 'mortality_rate'], combine: ([births, deaths]) => (births - deaths) / 10 },
    min: -5,
    max: 5,
    decimals: 2,
  },
  ageing_index: {
    kind: 'mult',
    level: (p, z) => 185 * Math.exp(0.45 * p.age + 0.1 * z()),
    trend: 0.022,
    trendSpread: 0.008,
    noise: 0.012,
    min: 20,
    max: 2000,
    decimals: 1,
  },
  average_age: {
    kind: 'add',
    level: (p, z) => 46.5 + 3 * p.age + 0.8 * z(),
    trend: 0.22,
    trendSpread: 0.05,
    noise: 0.05,
    min: 30,
    max: 65,
    decimals: 1,
  },
  population_density: {
    kind: 'mult',
    level: () => 0,
    derive: { from: ['population'], combine: ([pop], _eps, p) => pop / p.area },
    decimals: 1,
  },
  // ── economy ──
  purchasing_power_index: {
    kind: 'mult',
    level: (p, z) => 100 * Math.exp(0.3 * p.wealth + 0.08 * z()),
    trendSpread: 0.004,
    wave: 0.01,
    noise: 0.01,
    min: 30,
    decimals: 2,
  },
  average_monthly_earnings: {
    kind: 'mult',
    level: (p, z) => 1180 * Math.exp(0.2 * p.wealth + 0.06 * z()),
    national: ratios(
      2011,
      [1090, 1090, 1095, 1095, 1100, 1110, 1130, 1160, 1205, 1250, 1300, 1360, 1450, 1530, 1610],
      1300,
    ),
    trendSpread: 0.005,
    noise: 0.012,
    decimals: 2,
  },
  enterprises: {
    kind: 'mult',
    level: (p, z) => 0.12 * p.pop * Math.exp(0.12 * p.wealth + 0.1 * p.tourism + 0.1 * z()),
    national: ratios(2011, [1.08, 1.03, 0.98, 0.98, 0.99, 1.0, 0.98, 0.99, 1.0, 0.97, 1.0, 1.05, 1.1, 1.13, 1.15]),
    trendSpread: 0.006,
    noise: countNoise(0.01),
    decimals: 0,
  },
  tourist_overnight_stays: {
    kind: 'mult',
    // Level is a 2019 month; the curve dives in the 2020 lockdowns and recovers by 2022.
    level: (p, z) => p.pop * 0.4 * Math.exp(1.3 * p.tourism + 0.5 * z()),
    national: [
      [2011.5, -0.45],
      [2013.5, -0.38],
      [2015.5, -0.2],
      [2017.5, -0.05],
      [2019.5, 0],
      [2020.05, 0.02],
      [2020.2, -0.9],
      [2020.3, -2.6],
      [2020.42, -2.0],
      [2020.6, -0.55],
      [2020.75, -0.9],
      [2020.95, -1.7],
      [2021.1, -2.0],
      [2021.3, -1.3],
      [2021.6, -0.45],
      [2021.9, -0.3],
      [2022.3, -0.1],
      [2022.6, 0.03],
      [2023.5, 0.08],
      [2024.5, 0.13],
      [2025.5, 0.16],
    ],
    seasonal: (p) => ({ amplitude: p.islands ? 0.2 : 0.35 + 0.2 * Number(p.region === 'algarve'), peak: 8 }),
    trendSpread: 0.02,
    noise: countNoise(0.05),
    sparse: true,
    decimals: 0,
  },
  // ── employment ──
  registered_unemployed: {
    kind: 'mult',
    level: (p, z) => p.pop * 0.032 * Math.exp(-0.12 * p.wealth + 0.25 * Number(p.islands) + 0.2 * z()),
    national: [
      [2011.5, 0.55],
      [2013.1, 0.75],
      [2014.5, 0.55],
      [2015.5, 0.42],
      [2016.5, 0.3],
      [2017.5, 0.1],
      [2018.5, -0.05],
      [2019.5, -0.15],
      [2020.2, -0.15],
      [2020.5, 0.12],
      [2021.1, 0.2],
      [2021.5, 0],
      [2022.5, -0.12],
      [2023.5, -0.12],
      [2024.5, -0.15],
      [2025.5, -0.18],
    ],
    // Winter peak, strongest where jobs follow the summer season.
    seasonal: (p) => ({
      amplitude: 0.05 + 0.25 * Number(p.region === 'algarve') + 0.05 * Number(p.tourism > 1),
      peak: 1.5,
    }),
    trendSpread: 0.02,
    wave: 0.04,
    noise: countNoise(0.02),
    decimals: 0,
  },
  unemployment_rate: {
    kind: 'mult',
    level: (p, z) => 6.8 * Math.exp(-0.15 * p.wealth + 0.2 * Number(p.islands) + 0.15 * z()),
    national: ratios(2011, [12.9, 15.8, 16.4, 13.9, 12.4, 11.1, 8.9, 7.0, 6.5, 7.0, 6.6, 6.1, 6.5, 6.4, 6.3], 6.6),
    trendSpread: 0.01,
    noise: 0.03,
    min: 0.5,
    max: 40,
    decimals: 2,
  },
  employees: {
    kind: 'mult',
    level: (p, z) => 0.27 * p.pop * Math.exp(0.3 * p.wealth + 0.12 * z()),
    national: ratios(
      2011,
      [1.0, 0.95, 0.93, 0.94, 0.96, 0.98, 1.01, 1.04, 1.07, 1.05, 1.07, 1.1, 1.13, 1.15, 1.17],
      1.07,
    ),
    trendSpread: 0.008,
    noise: countNoise(0.01),
    decimals: 0,
  },
  // ── education ──
  school_retention_rate: {
    kind: 'mult',
    level: (p, z) => 3.2 * Math.exp(-0.25 * p.wealth + 0.25 * z()),
    national: ratios(2011, [8.8, 10.4, 10.0, 8.9, 7.9, 6.5, 5.6, 5.1, 3.8, 2.6, 2.9, 3.1, 3.3, 3.4, 3.4], 2.9),
    noise: events(0.005, 0.08),
    max: 40,
    decimals: 2,
  },
  higher_education_share: {
    kind: 'mult',
    level: (p, z) => 19 * Math.exp(0.32 * p.wealth + 0.12 * z()),
    trend: 0.035,
    trendSpread: 0.008,
    noise: 0.004,
    max: 80,
    decimals: 2,
  },
  students_enrolled: {
    kind: 'mult',
    level: (p, z) => 0.12 * p.pop * Math.exp(-0.12 * p.age + 0.08 * z()),
    trend: -0.008,
    trendSpread: 0.006,
    noise: countNoise(0.01),
    decimals: 0,
  },
  // ── health ──
  doctors_per_1000: {
    kind: 'mult',
    level: (p, z) => 5 * Math.exp(0.55 * p.wealth + 0.25 * z()),
    trend: 0.03,
    trendSpread: 0.01,
    noise: events(0.005),
    max: 40,
    decimals: 2,
  },
  nurses_per_1000: {
    kind: 'mult',
    level: (p, z) => 7.5 * Math.exp(0.3 * p.wealth + 0.2 * z()),
    trend: 0.03,
    trendSpread: 0.01,
    noise: events(0.008),
    max: 40,
    decimals: 2,
  },
  users_without_family_doctor_share: {
    kind: 'mult',
    level: (p, z) => WITHOUT_FAMILY_DOCTOR[p.region] * Math.exp(0.4 * bounded(z())),
    national: [
      [2011.5, 0.5],
      [2014.5, 0.35],
      [2016.5, 0.05],
      [2018.5, -0.15],
      [2019.5, -0.2],
      [2020.5, -0.1],
      [2021.5, 0],
      [2022.5, 0.3],
      [2023.2, 0.5],
      [2023.9, 0.35],
      [2024.5, 0.35],
      [2025.5, 0.3],
    ],
    wave: 0.05,
    noise: 0.03,
    max: 100,
    decimals: 2,
  },
  // ── housing ──
  median_housing_price_m2: {
    kind: 'mult',
    level: (p, z) => 1150 * Math.exp(0.45 * p.wealth + 0.25 * p.tourism + 0.15 * z()),
    national: ratios(2011, [0.86, 0.8, 0.76, 0.74, 0.75, 0.78, 0.84, 0.9, 0.95, 0.97, 1.0, 1.13, 1.24, 1.4, 1.58]),
    trendSpread: 0.01,
    noise: (p) => 0.03 + 3 / Math.sqrt(p.pop),
    sparse: true,
    decimals: 0,
  },
  median_bank_valuation_m2: {
    kind: 'mult',
    level: (p, z) => 1150 * Math.exp(0.38 * p.wealth + 0.2 * p.tourism + 0.12 * z()),
    national: ratios(2011, [0.88, 0.85, 0.81, 0.81, 0.83, 0.87, 0.92, 0.97, 0.99, 0.97, 1.0, 1.1, 1.2, 1.32, 1.48]),
    trendSpread: 0.01,
    noise: (p) => 0.015 + 2 / Math.sqrt(p.pop),
    sparse: true,
    decimals: 0,
  },
  median_rent_m2: {
    kind: 'mult',
    level: (p, z) => 5.4 * Math.exp(0.35 * p.wealth + 0.2 * p.tourism + 0.12 * z()),
    national: ratios(2011, [0.8, 0.77, 0.74, 0.74, 0.75, 0.77, 0.8, 0.86, 0.93, 0.97, 1.0, 1.08, 1.2, 1.3, 1.38]),
    trendSpread: 0.01,
    noise: (p) => 0.02 + 1.5 / Math.sqrt(p.pop),
    sparse: true,
    decimals: 2,
  },
  buildings_licensed: {
    kind: 'mult',
    level: (p, z) => 0.0045 * p.pop ** 0.85 * Math.exp(0.15 * (1 - p.urban) + 0.2 * z()),
    national: ratios(2011, [1.2, 0.85, 0.72, 0.68, 0.72, 0.8, 0.9, 0.96, 1.02, 1.0, 1.0, 0.98, 1.0, 1.03, 1.06]),
    noise: countNoise(0.08),
    decimals: 0,
  },
  // ── environment ──
  urban_waste_per_capita: {
    kind: 'mult',
    level: (p, z) => 480 * Math.exp(0.35 * p.tourism + 0.05 * p.wealth + 0.08 * z()),
    national: ratios(2011, [1.03, 0.97, 0.93, 0.93, 0.95, 0.97, 0.99, 1.0, 1.01, 0.99, 1.0, 1.0, 0.99, 1.0, 1.0]),
    trendSpread: 0.005,
    noise: 0.025,
    decimals: 1,
  },
  selective_collection_share: {
    kind: 'mult',
    level: (p, z) => 19 * Math.exp(0.1 * p.wealth + 0.25 * z()),
    trend: 0.055,
    trendSpread: 0.02,
    noise: 0.04,
    max: 90,
    decimals: 2,
  },
  water_losses_share: {
    kind: 'mult',
    level: (p, z) => 27 * Math.exp(-0.2 * p.wealth + 0.3 * bounded(z())),
    trend: -0.012,
    trendSpread: 0.015,
    noise: 0.06,
    min: 3,
    max: 80,
    decimals: 2,
  },
  // ── public finance ──
  municipal_debt_per_capita: {
    kind: 'mult',
    level: (p, z) => 330 * Math.exp(0.25 * (1 - p.urban) + 0.6 * bounded(z())),
    national: ratios(2011, [1.9, 1.85, 1.7, 1.55, 1.4, 1.25, 1.15, 1.08, 1.03, 1.02, 1.0, 0.96, 0.9, 0.86, 0.84]),
    trendSpread: 0.05,
    wave: 0.05,
    noise: 0.06,
    max: 8000,
    decimals: 2,
  },
  municipal_revenue_per_capita: {
    kind: 'mult',
    level: (p, z) => 1100 * smallness(p) ** -0.38 * Math.exp(0.35 * Math.max(p.wealth, 0) + 0.1 * z()),
    national: ratios(2011, [0.85, 0.8, 0.82, 0.82, 0.83, 0.84, 0.86, 0.9, 0.95, 0.96, 1.0, 1.07, 1.15, 1.24, 1.3]),
    trendSpread: 0.01,
    noise: 0.05,
    decimals: 2,
  },
  municipal_expenditure_per_capita: {
    kind: 'mult',
    level: () => 0,
    derive: { from: ['municipal_revenue_per_capita'], combine: ([revenue], eps) => revenue * (0.95 + 0.035 * eps) },
    decimals: 2,
  },
  own_revenue_share: {
    kind: 'mult',
    level: (p, z) => 28 * Math.exp(0.22 * p.wealth + 0.35 * log10(p.pop / 30_000) + 0.15 * z()),
    national: ratios(2011, [1.05, 1.0, 1.0, 1.02, 1.05, 1.07, 1.08, 1.08, 1.08, 1.0, 1.0, 1.02, 1.03, 1.02, 1.0]),
    noise: 0.03,
    max: 95,
    decimals: 2,
  },
  imi_rate: {
    kind: 'add',
    level: () => 0,
    // Set by the municipal assembly: a rate that stays put for years, sometimes cut once, never below 0.3.
    path: (_p, rng, periods) => {
      const rate = rng.pick(IMI_RATES);
      const cutYear = rng.next() < 0.35 ? rng.int(2012, 2025) : Number.POSITIVE_INFINITY;
      const cut = [0.02, 0.03, 0.05][rng.int(0, 2)];
      return periods.map((period) => (period.time >= cutYear ? Math.max(0.3, rate - cut) : rate));
    },
    decimals: 2,
  },
  // ── procurement ──
  public_contracts: {
    kind: 'mult',
    level: (p, z) => 8 * p.pop ** 0.45 * Math.exp(0.25 * z()),
    national: ratios(2011, [0.95, 0.85, 0.82, 0.85, 0.88, 0.9, 0.93, 0.97, 1.0, 0.97, 1.0, 1.05, 1.08, 1.1, 1.12]),
    noise: countNoise(0.05),
    decimals: 0,
  },
  public_contracts_value_per_capita: {
    kind: 'mult',
    level: (p, z) => 230 * smallness(p) ** -0.35 * Math.exp(0.35 * z()),
    national: ratios(2011, [0.9, 0.75, 0.65, 0.62, 0.6, 0.7, 0.8, 0.95, 1.0, 0.95, 1.0, 1.15, 1.3, 1.45, 1.45]),
    noise: 0.22,
    decimals: 2,
  },
  direct_award_share: {
    kind: 'mult',
    level: (p, z) => 33 * Math.exp(-0.08 * log10(p.pop / 30_000) + 0.25 * bounded(z())),
    national: ratios(2011, [1.1, 1.12, 1.1, 1.05, 1.0, 0.98, 0.95, 0.95, 0.97, 1.05, 1.0, 1.0, 0.98, 0.97, 0.96]),
    noise: 0.12,
    max: 100,
    decimals: 2,
  },
  // ── social ──
  rsi_beneficiaries_per_1000: {
    kind: 'mult',
    level: (p, z) => 16 * Math.exp(-0.15 * p.wealth + 0.4 * p.urban + 0.8 * Number(p.region === 'azores') + 0.3 * z()),
    national: ratios(2011, [1.45, 1.35, 1.15, 1.0, 1.0, 1.03, 1.05, 1.02, 1.0, 1.02, 1.0, 0.95, 0.92, 0.9, 0.88]),
    noise: events(0.015, 0.03),
    max: 300,
    decimals: 2,
  },
  pensioners_per_1000: {
    kind: 'mult',
    level: (p, z) => 285 * Math.exp(0.18 * p.age + 0.05 * z()),
    trend: 0.004,
    trendSpread: 0.003,
    noise: 0.008,
    max: 800,
    decimals: 2,
  },
  crime_rate: {
    kind: 'mult',
    level: (p, z) => 27 * Math.exp(0.25 * p.tourism + 0.35 * p.urban + 0.2 * z()),
    national: ratios(2011, [38.5, 38, 35.7, 34.6, 34, 32, 33, 32.6, 32.5, 29.5, 29.8, 33, 35.5, 34.5, 34], 29.8),
    noise: events(0.03, 0.03),
    max: 300,
    decimals: 2,
  },
  // ── territory ──
  area: { kind: 'mult', level: (p) => p.area, decimals: 2 },
  artificial_land_share: {
    kind: 'mult',
    level: (p, z) => 3 * Math.exp(3.1 * p.urban + 0.12 * bounded(z())),
    trend: 0.006,
    trendSpread: 0.003,
    noise: 0.002,
    max: 98,
    decimals: 2,
  },
  burnt_area: BURNT_AREA,
  // The same heavy-tailed shape; drawn apart from burnt_area (the draws are keyed by indicator).
  burnt_area_by_ignition: BURNT_AREA,
};
