import type { Taxcert } from '../../../../clients/typescript/src/index.ts';

/**
 * The client's types refuse what the document refuses. Never called: the project's tsc checks this
 * file, and each line marked @ts-expect-error must stay an error.
 */
export async function refused(client: Taxcert) {
  // @ts-expect-error a path parameter the operation needs
  await client.getCertificate({});
  // @ts-expect-error sort takes only the documented values
  await client.searchCertificates({ query: { sort: 'cheapest_first' } });
  // @ts-expect-error no such operation
  await client.getEverything();
  // @ts-expect-error a write's body is required
  await client.createSavedSearch({});
  // @ts-expect-error a position's amount is dollars as a number
  await client.addPortfolioPositions({ path: { id: 'pf_x' }, body: { positions: [{ certificate_id: 'cert_x', acquired_amount: '12' }] } });
  // @ts-expect-error only list operations can be walked
  client.all('getCertificate', { path: { id: 'cert_x' } });
  // Text is a string, the default is the typed body.
  const csv: string = await client.searchCertificates({ query: { format: 'csv' } }, { as: 'text' });
  const total: number = (await client.searchCertificates()).pagination.total;
  return [csv, total];
}
