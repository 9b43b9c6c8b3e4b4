import { defineMigration } from '../../../services/control/db/define-migration.ts';

// A migration (numbered 099 so it never meets a real one) as a developer would write it, for the tests only (not in the product's
// folder): every dialect word, one explicit engine branch, an index. The tests render it for
// both engines (define-migration.test.ts) and apply it after the product's own migrations on both
// (schema-parity.test.ts).
export default defineMigration(
  ({ engine, id, integer, text, real, blob, now, strict }) => `CREATE TABLE every_words (
  id ${id},
  client_id ${text} NOT NULL REFERENCES clients (id),
  name ${text} NOT NULL,
  counties ${text} NOT NULL CHECK (${engine === 'postgres' ? 'is_json_array(counties)' : "json_valid(counties) AND json_type(counties) = 'array'"}),
  matches ${integer} NOT NULL DEFAULT 0,
  min_rate ${real},
  digest ${blob},
  created_at ${text} NOT NULL DEFAULT ${now}
)${strict};

CREATE INDEX every_words_client ON every_words (client_id, created_at);
`,
);
