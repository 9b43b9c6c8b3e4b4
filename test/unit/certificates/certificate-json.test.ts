import { describe, expect, it } from 'vitest';
import { createHolderGroups, withIndexFields } from '../../../indexer/certificates/certificate-document.ts';
import type { CertificateDocument } from '../../../indexer/certificates/certificate-document.ts';
import { certificateJson, DOCUMENT_KEYS } from '../../../indexer/certificates/certificate-json.ts';
import { parseHolderAliases } from '../../../services/domain/holder-groups.ts';
import { CertificateRecord } from '../../../services/domain/records.ts';
import { sampleCertificate } from '../../helpers/sample-certificate.ts';

const groupOf = createHolderGroups(parseHolderAliases({ groups: [] }));

/** A document as the worker builds it: the schema's parse, then the index fields. */
function document(overrides: Partial<CertificateRecord>, n: number): CertificateDocument {
  const built = withIndexFields({ ok: true, record: CertificateRecord.parse(sampleCertificate(overrides, n)) }, groupOf);
  if (!built.ok) throw new Error('sample did not build');
  return built.record;
}

describe('certificateJson', () => {
  it('names the keys a built document has, in its order: the record schema, then the index fields', () => {
    expect(DOCUMENT_KEYS).toEqual([...Object.keys(CertificateRecord.shape), 'holder_group_id', 'holder_group_name', 'county_held', 'id_order']);
    expect(Object.keys(document({}, 1))).toEqual([...DOCUMENT_KEYS]);
  });

  it('writes what JSON.stringify writes, for documents with and without their nullable fields', () => {
    for (let n = 0; n < 50; n++) {
      const doc = document(n % 2 ? { legal_description: null, batch_number: null } : { legal_description: `LOT ${n}`, batch_number: `B${n}` }, n);
      expect(certificateJson(doc)).toBe(JSON.stringify(doc));
    }
  });

  it('escapes every string as JSON.stringify does: quotes, backslashes, control characters, lone surrogates', () => {
    const texts = ['LOT "A" & B', 'C:\\PB 7', 'line\nbreak\ttab\r', '\u0000\u001f\u007f', 'lone \ud800 high', 'lone \udc00 low', 'pair 😀', 'é ñ ü', 'sep \u2028 \u2029'];
    for (const [n, text] of texts.entries()) {
      const doc = document({ owner_name: `OWNER ${text}`, legal_description: text, site_address_full: `1 ${text} ST` }, n);
      expect(certificateJson(doc)).toBe(JSON.stringify(doc));
    }
  });

  it('hands a document holding a value of no schema type to JSON.stringify whole', () => {
    const doc = { ...document({}, 3), batch_number: undefined } as unknown as CertificateDocument;
    expect(certificateJson(doc)).toBe(JSON.stringify(doc));
    expect(certificateJson(doc)).not.toContain('batch_number');
  });
});
