import { hash } from 'node:crypto';

/**
 * A followed holder group's certificate is a position no one wrote, so its id is derived:
 * the same portfolio and certificate always give the same pos_ id (a client can page, link
 * and compare answers across days), and two portfolios following one group never share one.
 */
export function followedPositionId(portfolioId: string, certificateId: string): string {
  return `pos_${hash('sha256', `follow|${portfolioId}|${certificateId}`, 'hex').slice(0, 20)}`;
}
