/** Where people go (docs/console.md, docs/explorer.md): the home page and the console's navigation link to both. */
export const CONSOLE_PATH = '/console';
export const EXPLORER_PATH = '/explore';
