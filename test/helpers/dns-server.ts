import { createSocket } from 'node:dgram';
import type { LookupAddress } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import { isIPv4 } from 'node:net';
import type { Resolve } from '../../indexer/webhooks/guarded-lookup.ts';
import { ipv6Groups } from '../../services/domain/webhook-address.ts';

/**
 * A DNS server on loopback (UDP, RFC 1035 wire format) that answers A and AAAA questions from a
 * fixed table, so a test can make a name resolve to any address, as a hostile zone would,
 * without touching the machine's resolver or /etc/hosts. `resolve` asks it through Node's own
 * DNS client, in the shape the delivery agents' lookup takes.
 */

export interface DnsServer {
  port: number;
  resolve: Resolve;
  close(): Promise<void>;
}

const A = 1;
const AAAA = 28;

/** An address as the bytes of its RDATA. */
function rdata(address: string): Buffer {
  if (isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  const groups = ipv6Groups(address);
  if (!groups) throw new Error(`not an IP address: ${address}`);
  const out = Buffer.alloc(16);
  for (const [i, g] of groups.entries()) out.writeUInt16BE(g, i * 2);
  return out;
}

export async function startDnsServer(table: Record<string, readonly string[]>): Promise<DnsServer> {
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    // The question: labels from byte 12, then its type and class.
    let at = 12;
    const labels: string[] = [];
    while (query[at]! > 0) {
      labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString('ascii'));
      at += query[at]! + 1;
    }
    const questionEnd = at + 5;
    const type = query.readUInt16BE(at + 1);
    const name = labels.join('.').toLowerCase();
    const known = table[name];
    const answers = (known ?? []).filter((a) => (type === A ? isIPv4(a) : type === AAAA ? !isIPv4(a) : false));
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0);
    // A response, authoritative, recursion available; NXDOMAIN for a name not in the table.
    header.writeUInt16BE(0x8480 | (known ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const records = answers.map((a) => {
      const data = rdata(a);
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      rr.writeUInt16BE(type, 2);
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(data.length, 10);
      return Buffer.concat([rr, data]);
    });
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), ...records]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  const ask = async (hostname: string, family: 4 | 6): Promise<LookupAddress[]> => {
    try {
      return (await (family === 4 ? resolver.resolve4(hostname) : resolver.resolve6(hostname))).map((address) => ({ address, family }));
    } catch (err) {
      // No record of this family is an empty answer, as getaddrinfo gives it.
      if ((err as NodeJS.ErrnoException).code === 'ENODATA') return [];
      throw err;
    }
  };
  return {
    port,
    resolve: async (hostname, options) => {
      const families: (4 | 6)[] = options.family === 4 ? [4] : options.family === 6 ? [6] : [4, 6];
      return (await Promise.all(families.map((f) => ask(hostname, f)))).flat();
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
