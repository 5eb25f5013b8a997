/**
 * The municipality maps: the 308 shapes (data/municipalities.topo.json, CAOP via DGT, CC BY 4.0) with the
 * mainland at its place and the Azores and Madeira in insets, each with a projection of its own. A map is one tab
 * stop: the arrow keys move between municipalities (to the nearest one that way), Enter opens the one in focus;
 * hover and focus show its figures. The table beside every map is its text alternative.
 */
import { h } from './dom.js';

const W = 540;
const H = 660;
const district = (code) => Number(code.slice(0, 2));
/** The mainland at its place; the islands in insets down the left side, each fitted to its box. */
const REGIONS = [
  {
    name: 'mainland',
    extent: [
      [205, 10],
      [535, 650],
    ],
    test: (code) => district(code) <= 18,
  },
  {
    name: 'Açores',
    extent: [
      [14, 34],
      [186, 160],
    ],
    test: (code) => district(code) >= 41 && district(code) <= 47,
  },
  {
    name: 'Flores',
    extent: [
      [16, 212],
      [66, 300],
    ],
    test: (code) => district(code) >= 48,
  },
  {
    name: 'Madeira',
    extent: [
      [96, 214],
      [186, 300],
    ],
    test: (code) => district(code) >= 31 && district(code) <= 32,
  },
];

export function features(topology) {
  return topojson.feature(topology, topology.objects.municipalities).features;
}

/**
 * The projected shapes of the 308 municipalities (path data and centroid, by region), computed once per page:
 * they do not change with the indicator, so redrawing the map only recolours them.
 */
let geometry;
export function projected(topology) {
  if (geometry) return geometry;
  const shapes = features(topology);
  geometry = REGIONS.map((region) => {
    const own = shapes.filter((f) => region.test(f.properties.dico));
    const projection = d3.geoMercator().fitExtent(region.extent, { type: 'FeatureCollection', features: own });
    const path = d3.geoPath(projection).digits(1);
    return {
      region,
      shapes: own.map((f) => ({
        code: f.properties.dico,
        name: f.properties.name,
        d: path(f),
        centroid: path.centroid(f),
      })),
    };
  });
  return geometry;
}

const SVG = 'http://www.w3.org/2000/svg';
function s(tag, attributes = {}) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes))
    if (value !== undefined && value !== null) element.setAttribute(name, String(value));
  return element;
}

/** The hatch patterns for missing, stale and unassessable values, defined once per SVG. */
function patterns(svg) {
  const defs = s('defs');
  const missing = s('pattern', {
    id: 'hatch-missing',
    width: 6,
    height: 6,
    patternUnits: 'userSpaceOnUse',
    patternTransform: 'rotate(45)',
  });
  missing.append(
    s('rect', { width: 6, height: 6, fill: '#f2f2f2' }),
    s('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#9a9a9a', 'stroke-width': 1.5 }),
  );
  const stale = s('pattern', {
    id: 'hatch-stale',
    width: 5,
    height: 5,
    patternUnits: 'userSpaceOnUse',
    patternTransform: 'rotate(-45)',
  });
  stale.append(
    s('line', { x1: 0, y1: 0, x2: 0, y2: 5, stroke: '#ffffff', 'stroke-width': 1.6, 'stroke-opacity': 0.85 }),
  );
  // Cross-hatched purple: a value that cannot be judged on these data (the integrity map), apart from every class,
  // from "no data" (grey hatching) and from a value of 0.
  const unassessable = s('pattern', { id: 'hatch-unassessable', width: 6, height: 6, patternUnits: 'userSpaceOnUse' });
  unassessable.append(
    s('rect', { width: 6, height: 6, fill: '#ffffff' }),
    s('path', { d: 'M0,0 L6,6 M6,0 L0,6', stroke: '#7b6bb0', 'stroke-width': 1.2 }),
  );
  defs.append(missing, stale, unassessable);
  svg.append(defs);
}

/**
 * Draws a choropleth. `style(code)` → `{fill, stale, missing}`; `describe(code)` → lines of the tooltip;
 * `open(code)` on click or Enter.
 */
export function choropleth(topology, { label, style, describe, open }) {
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'map',
    role: 'application',
    'aria-label': label,
    tabindex: 0,
  });
  const title = s('title');
  title.textContent = label;
  svg.append(title);
  patterns(svg);
  const wrapper = h('div', { class: 'map-wrap' });
  const tip = h('div', { class: 'tip', role: 'status', hidden: true });
  wrapper.append(svg, tip);

  const centroids = new Map();
  const paths = new Map();
  const nameOf = new Map();
  for (const { region, shapes: own } of projected(topology)) {
    const group = s('g', { class: `region ${region.name === 'mainland' ? 'mainland' : 'inset'}` });
    if (region.name !== 'mainland') {
      const [[x0, y0], [x1, y1]] = region.extent;
      group.append(
        s('rect', { x: x0 - 8, y: y0 - 22, width: x1 - x0 + 16, height: y1 - y0 + 30, class: 'inset-box', rx: 3 }),
      );
      const caption = s('text', { x: x0 - 3, y: y0 - 9, class: 'inset-label' });
      caption.textContent = region.name;
      group.append(caption);
    }
    for (const { code, name, d, centroid } of own) {
      const look = style(code);
      const shape = s('path', {
        d,
        class: 'm',
        'data-code': code,
        fill: look.missing ? 'url(#hatch-missing)' : look.fill,
      });
      group.append(shape);
      if (look.stale && !look.missing)
        group.append(s('path', { d, class: 'stale', fill: 'url(#hatch-stale)', 'pointer-events': 'none' }));
      paths.set(code, shape);
      centroids.set(code, centroid);
      nameOf.set(code, name);
    }
    svg.append(group);
  }

  const outline = s('path', { class: 'outline', 'pointer-events': 'none', visibility: 'hidden' });
  svg.append(outline);
  let focused;
  function show(code, point) {
    focused = code;
    // The outline is a copy drawn over every shape (its neighbours would hide part of it), not hit by the pointer.
    outline.setAttribute('d', paths.get(code).getAttribute('d'));
    outline.removeAttribute('visibility');
    tip.replaceChildren(
      ...describe(code, nameOf.get(code)).map((line, i) => (i === 0 ? h('strong', {}, line) : h('div', {}, line))),
    );
    tip.hidden = false;
    const box = wrapper.getBoundingClientRect();
    const [x, y] = point ?? svgToScreen(svg, centroids.get(code), box);
    const left = Math.min(Math.max(4, x + 12), box.width - tip.offsetWidth - 4);
    const top = y + 14 + tip.offsetHeight > box.height ? y - tip.offsetHeight - 10 : y + 14;
    tip.style.left = `${left}px`;
    tip.style.top = `${Math.max(0, top)}px`;
  }
  function hide() {
    outline.setAttribute('visibility', 'hidden');
    tip.hidden = true;
  }

  svg.addEventListener('mousemove', (event) => {
    const code = event.target.getAttribute?.('data-code');
    if (!code) return hide();
    const box = wrapper.getBoundingClientRect();
    show(code, [event.clientX - box.left, event.clientY - box.top]);
  });
  svg.addEventListener('mouseleave', hide);
  svg.addEventListener('click', (event) => {
    const code = event.target.getAttribute?.('data-code');
    if (code) open(code);
  });
  svg.addEventListener('focus', () => show(focused ?? '1106'));
  svg.addEventListener('blur', hide);
  svg.addEventListener('keydown', (event) => {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (event.key === 'Enter' && focused) {
      event.preventDefault();
      open(focused);
    } else if (moves[event.key]) {
      event.preventDefault();
      const next = nearest(centroids, focused ?? '1106', moves[event.key]);
      if (next) show(next);
    } else if (event.key === 'Escape') hide();
  });
  return { element: wrapper, svg, paths, show };
}

/** The nearest municipality from `code` in direction `[dx, dy]` (distance, with sideways offset counting double). */
function nearest(centroids, code, [dx, dy]) {
  const [x0, y0] = centroids.get(code);
  let best;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const [other, [x, y]] of centroids) {
    if (other === code) continue;
    const along = (x - x0) * dx + (y - y0) * dy;
    if (along <= 0.5) continue;
    const across = Math.abs((x - x0) * dy - (y - y0) * dx);
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = other;
    }
  }
  return best;
}

function svgToScreen(svg, [x, y], box) {
  const rect = svg.getBoundingClientRect();
  const scale = rect.width / W;
  return [rect.left - box.left + x * scale, rect.top - box.top + y * scale];
}

/** A small map of one municipality and its neighbours (shared borders, from the topology's arcs). */
export function neighbourMap(topology, code, { open, label }) {
  const geometries = topology.objects.municipalities.geometries;
  const index = geometries.findIndex((g) => g.properties.dico === code);
  const neighbours = topojson.neighbors(geometries)[index] ?? [];
  const shapes = features(topology);
  const own = [index, ...neighbours].map((i) => shapes[i]);
  const size = [360, 300];
  const projection = d3.geoMercator().fitExtent(
    [
      [10, 10],
      [size[0] - 10, size[1] - 10],
    ],
    { type: 'FeatureCollection', features: own },
  );
  const path = d3.geoPath(projection);
  // A group of links, not an image: a screen reader reads an image as one thing and would not name the links a
  // keyboard tabs to in it.
  const svg = s('svg', {
    viewBox: `0 0 ${size[0]} ${size[1]}`,
    class: 'map small',
    role: 'group',
    'aria-label': label,
  });
  for (const feature of own) {
    const dico = feature.properties.dico;
    const link = s('a', { href: `/explore/municipalities/${dico}`, 'aria-label': feature.properties.name });
    const shape = s('path', { d: path(feature), class: dico === code ? 'm self' : 'm neighbour', 'data-code': dico });
    const title = s('title');
    title.textContent = feature.properties.name;
    shape.append(title);
    link.append(shape);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      open(dico);
    });
    svg.append(link);
  }
  for (const feature of own) {
    const [x, y] = path.centroid(feature);
    const text = s('text', {
      x,
      y,
      class: feature.properties.dico === code ? 'place self' : 'place',
      'text-anchor': 'middle',
    });
    text.textContent = feature.properties.name;
    svg.append(text);
  }
  return { svg, neighbours: neighbours.map((i) => geometries[i].properties) };
}
