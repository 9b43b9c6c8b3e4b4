/**
 * The account page's navigation, in order. A page that lands later adds its line here and its
 * module to pages/index.ts; the webhooks issue's page takes `{ href: '/account/webhooks', label:
 * 'Webhooks' }` after Keys (its address is reserved by issue 21).
 */
export interface NavItem {
  href: string;
  label: string;
}

export const NAV: readonly NavItem[] = [
  { href: '/account', label: 'Overview' },
  { href: '/account/keys', label: 'Keys' },
  { href: '/account/billing', label: 'Plans and packs' },
];

/** The entries with the one for `path` marked current (a page below an entry counts as it). */
export function navFor(path: string): (NavItem & { current: boolean })[] {
  const best = NAV.filter((n) => path === n.href || path.startsWith(`${n.href}/`)).sort((a, b) => b.href.length - a.href.length)[0];
  return NAV.map((n) => ({ ...n, current: n === best }));
}
