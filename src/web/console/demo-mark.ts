/**
 * The mark of the demo's company agents (isDemoDeployment, src/agents/demo/demo-agents.ts): generated examples,
 * whose companies are invented, are never shown as a real company's agent (docs/console.md, Pages).
 */
import { html } from '../html.js';

/** The pill beside a demo agent's name. */
export const DEMO_PILL = html`<span class="pill demo">demo</span>`;

/** What the pill means, once on a page that shows one. */
export const DEMO_NOTE = html`<p class="muted" role="note">${DEMO_PILL} marks an example agent the demo starts
with: its company, contacts, prices and knowledge are invented, not a real company's.</p>`;
