import { describe, expect, it } from 'vitest';
import { generateState } from '../../../../services/generator/generate-state.ts';
import { sourceRows } from '../../../../services/generator/generate-fixtures.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';

/**
 * We do not invent government URLs. A county selling through a platform links to that platform's
 * sale page; a tax collector's own sale (county_local) and a hand-keyed list (manual) have no URL
 * we can stand behind, and no set has an export download URL: those are null.
 */
const registry = loadRegistry();

describe('registry URLs', () => {
  it('gives county_local and manual channels no sale URL, and platforms only their own host', () => {
    const hosts = new Set(
      registry.platforms.map((p) => new URL(p.saleUrlTemplate.replace('{county}', 'x')).hostname.split('.').slice(-2).join('.')),
    );
    let local = 0;
    for (const county of registry.counties) {
      const channel = registry.channel(county);
      if (channel === null) continue;
      if (channel.channel === 'county_local' || channel.channel === 'manual') {
        local++;
        expect(channel.saleUrl, county.slug).toBeNull();
      } else {
        const host = new URL(channel.saleUrl!).hostname.split('.').slice(-2).join('.');
        expect(hosts.has(host), `${county.slug} ${channel.saleUrl}`).toBe(true);
      }
      expect(channel.saleUrl ?? '').not.toMatch(/\.fl\.us|\.gov|taxcollector/);
    }
    expect(local).toBeGreaterThan(3);
    expect(registry.channelForVendor('county_local', registry.county('duval')!)?.saleUrl).toBeNull();
  });

  it('writes source rows with no invented download URL', () => {
    const state = generateState({ certificates: 600, seed: 1, today: '2026-11-22', registry });
    const rows = sourceRows(state);
    expect(rows.length).toBeGreaterThan(60);
    for (const row of rows) expect(row.downloadUrl).toBeNull();
    expect(rows.filter((r) => r.vendor === 'county_local').every((r) => r.saleUrl === null)).toBe(true);
  });
});
