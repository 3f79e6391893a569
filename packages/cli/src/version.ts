/** The version of frontdesk `frontdesk --version` prints; the same as packages/cli/package.json (a test checks). */
export const VERSION = '0.1.0'
