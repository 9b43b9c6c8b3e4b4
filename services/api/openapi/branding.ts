import type { FastifySwaggerUiConfigOptions, FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { PRODUCT_NAME } from './description.ts';

/**
 * The docs page wears the product's name, not the renderer's: @fastify/swagger-ui
 * otherwise titles the page "Swagger UI" and shows its logo and favicon.
 */

/** The product's mark: a T on a rounded square. The site's favicon (services/web/favicon.ts) draws the same. */
export const productMark = (size: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f5f8b"/><path d="M8 9h16v3h-6.5v12h-3V12H8z" fill="#fff"/></svg>`;

const wordmark = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="40" viewBox="0 0 360 40"><rect y="4" width="32" height="32" rx="6" fill="#1f5f8b"/><path d="M8 13h16v3h-6.5v12h-3V16H8z" fill="#fff"/><text x="44" y="27" font-family="Helvetica, Arial, sans-serif" font-size="18" font-weight="600" fill="#fff">${PRODUCT_NAME}</text></svg>`;

/**
 * A Swagger UI plugin, run in the browser (@fastify/swagger-ui writes its source into the page's
 * script, so it must stand alone): the renderer's own logo is never drawn. That logo carries an
 * inline <style>, which the page's CSP refuses (a console error on every visit), and it showed
 * for a moment before the wordmark below replaced it.
 */
function withoutRendererLogo() {
  return { components: { Logo: () => null } };
}

export const docsBranding: Pick<FastifySwaggerUiOptions, 'logo' | 'theme'> & { uiConfig: Pick<FastifySwaggerUiConfigOptions, 'plugins'> } =
  {
    uiConfig: { plugins: [withoutRendererLogo] },
    logo: { type: 'image/svg+xml', content: Buffer.from(wordmark), href: '/docs', target: '_self' },
    theme: {
      title: `${PRODUCT_NAME}: API reference`,
      favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(productMark(32)) }],
      css: [{ filename: 'theme.css', content: '.swagger-ui .topbar { background-color: #163f5c; }' }],
    },
  };
