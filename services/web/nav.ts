/**
 * The account page's navigation, in order. A page that lands later adds its line here and its
 * module to pages/index.ts.
 */
export interface NavItem {
  href: string;
  label: string;
}

export const NAV: readonly NavItem[] = [
  { href: '/account', label: 'Overview' },
  { href: '/account/explore', label: 'Explore' },
  { href: '/account/keys', label: 'Keys' },
  { href: '/account/saved-searches', label: 'Saved searches' },
  { href: '/account/portfolios', label: 'Portfolios' },
  { href: '/account/webhooks', label: 'Webhooks' },
  { href: '/account/billing', label: 'Plans and packs' },
];

/** The entries with the one for `path` marked current: a page below an entry counts as it, except below the overview (every page is). */
export function navFor(path: string): (NavItem & { current: boolean })[] {
  const matches = (n: NavItem) => path === n.href || (n.href !== '/account' && path.startsWith(`${n.href}/`));
  return NAV.map((n) => ({ ...n, current: matches(n) }));
}
