/**
 * The generated half of the Python client (clients/python): the served OpenAPI document in,
 * two Python modules out, as text. Pure, so a test can compare the committed files with a
 * fresh generation and unit-test each rule on a small document.
 *
 * - types.py: a TypedDict per components.schemas entry (required keys plain, the others
 *   NotRequired; nullable as Optional, enums as Literal, arrays as list[...], refs by name),
 *   plus one for each inline object a property or a parameter holds.
 * - operations.py: one typed method per operation, named by its operationId in snake_case,
 *   an `iter_<op>` per list operation (every page, row by row) and a `<op>_csv` per operation
 *   that also answers text/csv; the table `OPERATIONS` says how each is sent.
 */

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  description?: string;
  [key: string]: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
  style?: string;
  explode?: boolean;
  description?: string;
}

interface MediaType {
  schema?: JsonSchema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);
/** Names the generated modules define or import: a schema of the same name gets a trailing underscore. */
const RESERVED = new Set([
  'Any',
  'Dict',
  'Iterator',
  'List',
  'Literal',
  'NotRequired',
  'Optional',
  'TypedDict',
  'Union',
  'Operation',
  'Operations',
  'Param',
]);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function snakeCase(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

function pascalCase(name: string): string {
  return snakeCase(name)
    .split('_')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/** A Python name for a parameter or a method: snake_case, a keyword gets a trailing underscore. */
export function pythonName(name: string): string {
  const snake = snakeCase(name) || 'value';
  const safe = /^[0-9]/.test(snake) ? `_${snake}` : snake;
  return KEYWORDS.has(safe) ? `${safe}_` : safe;
}

function className(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, '_');
  const safe = /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
  return KEYWORDS.has(safe) || RESERVED.has(safe) ? `${safe}_` : safe;
}

function pyLiteral(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return JSON.stringify(value);
}

function pyString(text: string): string {
  return JSON.stringify(text);
}

/** A Python string of a type expression: single quotes, since the expression's own literals use double ones. */
function quoted(expression: string): string {
  return expression.includes("'") ? pyString(expression) : `'${expression}'`;
}

/** Turns schemas into Python type expressions, collecting the TypedDicts inline objects need. */
class TypeWriter {
  /** Class name -> its definition, in the order first met. */
  readonly classes = new Map<string, string>();
  private readonly refNames = new Map<string, string>();

  constructor(readonly schemas: Record<string, JsonSchema>) {
    for (const name of Object.keys(schemas)) this.refNames.set(name, className(name));
  }

  refName(ref: string): string {
    const name = decodeURIComponent(ref.replace(/^#\/components\/schemas\//, ''));
    const found = this.refNames.get(name);
    if (!found) throw new Error(`unresolved $ref ${ref}`);
    return found;
  }

  /** A name for an inline object, unique among the classes written. */
  private freshName(hint: string): string {
    const base = className(pascalCase(hint) || 'Inline');
    const taken = new Set([...this.refNames.values(), ...this.classes.keys()]);
    if (!taken.has(base)) return base;
    let n = 2;
    while (taken.has(`${base}${n}`)) n++;
    return `${base}${n}`;
  }

  /** The Python type of a schema; `hint` names an inline object should it be one. */
  type(schema: JsonSchema | boolean | undefined, hint: string): string {
    if (schema === undefined || schema === true || schema === false) return 'Any';
    const { nullable, inner } = splitNull(schema);
    const base = inner === null ? 'None' : this.nonNull(inner, hint);
    return nullable && base !== 'None' && base !== 'Any' ? `Optional[${base}]` : base;
  }

  private nonNull(schema: JsonSchema, hint: string): string {
    if (schema.$ref) return this.refName(schema.$ref);
    if (schema.const !== undefined) return `Literal[${pyLiteral(schema.const)}]`;
    if (schema.enum) return schema.enum.length > 0 ? `Literal[${schema.enum.map(pyLiteral).join(', ')}]` : 'Any';
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) return union(alternatives.map((s, i) => this.type(s, `${hint}${alternatives.length > 1 ? `_option_${i + 1}` : ''}`)));
    if (schema.allOf) {
      if (schema.allOf.length === 1) return this.type(schema.allOf[0], hint);
      // An intersection of objects is one object holding every property.
      if (schema.allOf.every((s) => s.properties && !s.$ref)) {
        const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
        for (const part of schema.allOf) {
          Object.assign(merged.properties!, part.properties);
          merged.required!.push(...(part.required ?? []));
        }
        return this.object(merged, hint);
      }
      return 'Any';
    }
    const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    if (type.length > 1) return union(type.map((t) => this.type({ ...schema, type: t }, hint)));
    switch (type[0]) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `List[${this.type(schema.items, `${hint}_item`)}]`;
      case 'object':
        return this.object(schema, hint);
      default:
        return schema.properties ? this.object(schema, hint) : 'Any';
    }
  }

  private object(schema: JsonSchema, hint: string): string {
    const properties = schema.properties ?? {};
    if (Object.keys(properties).length === 0) {
      const extra = schema.additionalProperties;
      return `Dict[str, ${typeof extra === 'object' ? this.type(extra, `${hint}_value`) : 'Any'}]`;
    }
    const name = this.freshName(hint);
    // Taken before the properties are typed, so a nested object cannot take the same name.
    this.classes.set(name, '');
    this.classes.set(name, this.typedDict(name, schema, schema.description));
    return name;
  }

  /** A TypedDict's definition: the class syntax, or the functional one when a key is not a Python name. */
  typedDict(name: string, schema: JsonSchema, description?: string): string {
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([key, property]) => {
      const type = this.type(property, `${name}_${key}`);
      return { key, type: required.has(key) ? type : `NotRequired[${type}]` };
    });
    const doc = description ? docstring(description, '    ') : '';
    if (fields.length === 0) return `class ${name}(TypedDict):\n${doc || '    pass\n'}`;
    if (fields.every((f) => IDENTIFIER.test(f.key) && !KEYWORDS.has(f.key))) {
      return `class ${name}(TypedDict):\n${doc}${fields.map((f) => `    ${f.key}: ${f.type}\n`).join('')}`;
    }
    // Values as strings: the functional syntax evaluates them, and a name may be defined further down.
    const body = fields.map((f) => `        ${pyString(f.key)}: ${quoted(f.type)},\n`).join('');
    return `${name} = TypedDict(\n    ${pyString(name)},\n    {\n${body}    },\n)\n`;
  }
}

function splitNull(schema: JsonSchema): { nullable: boolean; inner: JsonSchema | null } {
  if (schema.nullable) {
    const { nullable: _, ...rest } = schema;
    return { nullable: true, inner: rest };
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const others = schema.type.filter((t) => t !== 'null');
    if (others.length === 0) return { nullable: false, inner: null };
    return { nullable: true, inner: { ...schema, type: others.length === 1 ? others[0] : others } };
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.some((s) => s.type === 'null')) {
    const others = alternatives.filter((s) => s.type !== 'null');
    if (others.length === 0) return { nullable: false, inner: null };
    const key = schema.anyOf ? 'anyOf' : 'oneOf';
    const { [key]: _, ...rest } = schema;
    return { nullable: true, inner: others.length === 1 ? { ...rest, ...others[0] } : { ...rest, [key]: others } };
  }
  if (schema.enum?.includes(null)) return { nullable: true, inner: { ...schema, enum: schema.enum.filter((v) => v !== null) } };
  return { nullable: false, inner: schema };
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes('Any')) return 'Any';
  const literals = unique.filter((t) => t.startsWith('Literal['));
  const others = unique.filter((t) => !t.startsWith('Literal['));
  // Literal[...] | Literal[...] read better as one Literal.
  const merged = literals.length > 1 ? [`Literal[${literals.map((l) => l.slice('Literal['.length, -1)).join(', ')}]`] : literals;
  const all = [...merged, ...others];
  return all.length === 1 ? all[0]! : `Union[${all.join(', ')}]`;
}

function docstring(text: string, indent: string): string {
  const cleaned = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"').trim();
  const lines = cleaned.split('\n');
  if (lines.length === 1) return `${indent}"""${lines[0]}"""\n`;
  return `${indent}"""${lines.map((l, i) => (i === 0 || l === '' ? l : indent + l)).join('\n')}\n${indent}"""\n`;
}

const HEADER = (what: string) =>
  `# Generated from the served OpenAPI document by scripts/write-python-client.ts (npm run clients:write).\n# Do not edit: ${what}\n`;

/** Every component schema as a TypedDict (an object) or an alias (anything else), in the document's order. */
function componentTypes(writer: TypeWriter): string[] {
  return Object.entries(writer.schemas).map(([name, schema]) => {
    const py = className(name);
    const { nullable, inner } = splitNull(schema);
    if (inner && !nullable && !inner.$ref && !inner.anyOf && !inner.oneOf && inner.properties)
      return writer.typedDict(py, inner, schema.description);
    // A string, so the names it holds may be defined further down; TypeAlias tells type checkers it is a type.
    return `${py}: TypeAlias = ${quoted(writer.type(schema, name))}\n${schema.description ? docstring(schema.description, '') : ''}`;
  });
}

/**
 * Both modules. Operations are typed with the same writer, so a parameter's inline enum or a
 * response's inline object lands in types.py beside the component schemas.
 */
export function pythonClient(document: OpenApiDocument): { types: string; operations: string } {
  const writer = new TypeWriter(document.components?.schemas ?? {});
  const named = componentTypes(writer);
  const table: string[] = [];
  const methods: string[] = [];
  const used = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const written = operation(writer, path, method, op, item);
      table.push(written.entry);
      methods.push(written.methods);
      for (const t of written.types) used.add(t);
    }
  }
  const inline = [...writer.classes.values()];
  const typeNames = [...new Set([...Object.keys(document.components?.schemas ?? {}).map(className), ...writer.classes.keys()])];
  const types = [
    HEADER('run `npm run clients:write` after changing a schema.'),
    '"""The API\'s shapes as TypedDicts, from components.schemas and the inline objects of the operations."""\n',
    '# Annotations stay strings (never evaluated), so these load on Python 3.9 and 3.10 too, where',
    '# typing has no NotRequired; type checkers read them as written.',
    'from __future__ import annotations\n',
    'import sys',
    'from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, TypedDict, Union\n',
    'if TYPE_CHECKING:',
    '    if sys.version_info >= (3, 11):',
    '        from typing import NotRequired, TypeAlias',
    '    else:',
    '        from typing_extensions import NotRequired, TypeAlias\n',
    '__all__ = [',
    ...typeNames.map((n) => `    ${pyString(n)},`),
    ']\n',
    ...[...named, ...inline].map((d) => `\n${d}`),
  ].join('\n');
  const imports = typeNames.filter((n) => [...used].some((t) => new RegExp(`\\b${n}\\b`).test(t)));
  const operations = [
    HEADER('run `npm run clients:write` after changing a route.'),
    '"""One method per operation of the API, named by its operationId in snake_case."""\n',
    'from __future__ import annotations\n',
    'from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Literal, Optional, Union\n',
    'from .operation import Operation, Param\n',
    'if TYPE_CHECKING:',
    imports.length > 0 ? `    from .types import (\n${imports.map((n) => `        ${n},\n`).join('')}    )\n` : '    pass\n',
    'OPERATIONS: Dict[str, Operation] = {',
    ...table,
    '}\n\n',
    'class Operations:',
    '    """The generated methods; Client supplies `_call`, `_csv` and `_rows`."""\n',
    '    def _call(self, name: str, params: Dict[str, Any]) -> Any:  # pragma: no cover',
    '        raise NotImplementedError\n',
    '    def _csv(self, name: str, params: Dict[str, Any]) -> str:  # pragma: no cover',
    '        raise NotImplementedError\n',
    '    def _rows(self, name: str, params: Dict[str, Any]) -> Iterator[Any]:  # pragma: no cover',
    '        raise NotImplementedError\n',
    ...methods,
  ].join('\n');
  return { types: `${types.trimEnd()}\n`, operations: `${operations.trimEnd()}\n` };
}

interface PyParam {
  /** Name on the wire. */
  wire: string;
  /** Name of the keyword argument. */
  py: string;
  in: 'path' | 'query' | 'header' | 'body';
  required: boolean;
  type: string;
  explode: boolean;
}

function operation(
  writer: TypeWriter,
  path: string,
  method: string,
  op: Operation,
  item: Record<string, unknown>,
): { entry: string; methods: string; types: string[] } {
  const name = pythonName(op.operationId!);
  const hint = pascalCase(op.operationId!);
  const shared = (item.parameters as Parameter[] | undefined) ?? [];
  const params: PyParam[] = [];
  for (const p of [...shared, ...(op.parameters ?? [])]) {
    if (p.in === 'cookie') continue;
    const isKey = p.in === 'header' && p.name.toLowerCase() === 'idempotency-key';
    params.push({
      wire: p.name,
      py: isKey ? 'idempotency_key' : pythonName(p.name),
      in: p.in,
      required: p.in === 'path' || (p.required ?? false),
      type: writer.type(p.schema, `${hint}_${p.name}`),
      // OpenAPI's default for a query parameter is style form with explode.
      explode: p.explode ?? (p.style === undefined || p.style === 'form'),
    });
  }
  const jsonBody = op.requestBody?.content?.['application/json'];
  if (jsonBody) {
    params.push({
      wire: 'body',
      py: 'body',
      in: 'body',
      required: op.requestBody?.required ?? false,
      type: writer.type(jsonBody.schema, `${hint}_body`),
      explode: false,
    });
  }
  const success = Object.entries(op.responses ?? {}).find(([status]) => /^2\d\d$/.test(status))?.[1];
  const json = success?.content?.['application/json']?.schema;
  const csv = success?.content?.['text/csv'] !== undefined;
  // Without JSON: a calendar or a CSV is text, a bulk file is bytes.
  const other = Object.keys(success?.content ?? {});
  const answer = json
    ? writer.type(json, `${hint}_answer`)
    : other.length > 0 && other.every((t) => t.startsWith('text/'))
      ? 'str'
      : 'bytes';
  const rowSchema = json ? listRows(writer, json) : undefined;
  const pagedBy = rowSchema ? paging(params) : undefined;
  const rowType = rowSchema ? writer.type(rowSchema, `${hint}_row`) : 'Any';

  // Iterators ask for the largest page the operation allows: fewer calls, fewer credits.
  const limitSchema = [...shared, ...(op.parameters ?? [])].find((p) => p.in === 'query' && p.name === 'limit')?.schema;
  const pageSize = typeof limitSchema?.maximum === 'number' ? limitSchema.maximum : undefined;
  const formatParam = params.find((p) => p.in === 'query' && p.wire === 'format');
  const entry = [
    `    ${pyString(name)}: Operation(`,
    `        operation_id=${pyString(op.operationId!)},`,
    `        method=${pyString(method.toUpperCase())},`,
    `        path=${pyString(path)},`,
    `        params=(`,
    ...params.map(
      (p) =>
        `            Param(${pyString(p.py)}, ${pyString(p.wire)}, ${pyString(p.in)}, required=${p.required ? 'True' : 'False'}, explode=${p.explode ? 'True' : 'False'}),`,
    ),
    '        ),',
    `        paging=${pagedBy ? pyString(pagedBy) : 'None'},`,
    `        page_size=${pageSize ?? 'None'},`,
    `        csv=${csv ? 'True' : 'False'},`,
    `        accept=${pyString(json ? 'application/json' : (other[0] ?? '*/*'))},`,
    '    ),',
  ].join('\n');

  const signature = (skip: (p: PyParam) => boolean) => {
    const kept = params.filter((p) => !skip(p));
    // Path parameters and the body first and positional; everything else by keyword.
    const positional = kept.filter((p) => p.in === 'path' || (p.in === 'body' && p.required));
    const keyword = kept.filter((p) => !positional.includes(p));
    const parts = ['self', ...positional.map((p) => `${p.py}: ${p.type}`)];
    if (keyword.length > 0) parts.push('*');
    for (const p of keyword) parts.push(p.required ? `${p.py}: ${p.type}` : `${p.py}: Optional[${stripOptional(p.type)}] = None`);
    const args = `{${kept.map((p) => `${pyString(p.py)}: ${p.py}`).join(', ')}}`;
    return { parts, args };
  };
  const def = (method: string, parts: string[], returns: string, doc: string, body: string) => {
    const line = `    def ${method}(${parts.join(', ')}) -> ${returns}:`;
    const head = line.length <= 110 ? line : `    def ${method}(\n${parts.map((p) => `        ${p},\n`).join('')}    ) -> ${returns}:`;
    return `${head}\n${docstring(doc, '        ')}        ${body.length <= 100 ? body : wrapCall(body)}\n`;
  };
  const summary = op.summary ?? op.operationId!;
  const all = signature((p) => p === formatParam && csv);
  const out: string[] = [
    def(name, all.parts, answer, `${summary}\n\n${method.toUpperCase()} ${path}`, `return self._call(${pyString(name)}, ${all.args})`),
  ];
  if (csv) {
    out.push(
      def(
        `${name}_csv`,
        all.parts,
        'str',
        `${summary}, as CSV text (format=csv).\n\n${method.toUpperCase()} ${path}`,
        `return self._csv(${pyString(name)}, ${all.args})`,
      ),
    );
  }
  if (pagedBy) {
    const walk = signature((p) => (p === formatParam && csv) || (pagedBy === 'offset' ? p.wire === 'offset' : p.wire === 'after'));
    out.push(
      def(
        `iter_${name}`,
        walk.parts,
        `Iterator[${rowType}]`,
        `${summary}: every row of every page, one at a time (paged by ${pagedBy === 'offset' ? 'offset' : 'the `after` cursor'}).\n\n${method.toUpperCase()} ${path}`,
        `return self._rows(${pyString(name)}, ${walk.args})`,
      ),
    );
  }
  return { entry, methods: out.join('\n'), types: [answer, rowType, ...params.map((p) => p.type)] };
}

/** `return self._x("name", {"a": a, "b": b})` over several lines, one argument a line. */
function wrapCall(line: string): string {
  const open = line.indexOf('{');
  const args = line.slice(open + 1, line.lastIndexOf('}')).split(', ');
  return `${line.slice(0, open).trimEnd()}\n            {\n${args.map((a) => `                ${a},\n`).join('')}            },\n        )`;
}

function stripOptional(type: string): string {
  return type.startsWith('Optional[') ? type.slice('Optional['.length, -1) : type;
}

/** A list answer: an object whose `data` is an array beside a `pagination` object. The row schema, or none. */
function listRows(writer: TypeWriter, schema: JsonSchema): JsonSchema | undefined {
  const resolved = schema.$ref ? writer.schemas[decodeURIComponent(schema.$ref.replace(/^#\/components\/schemas\//, ''))] : schema;
  const data = resolved?.properties?.data;
  if (!resolved?.properties?.pagination || !data) return undefined;
  const array = data.$ref ? writer.schemas[decodeURIComponent(data.$ref.replace(/^#\/components\/schemas\//, ''))] : data;
  return array?.type === 'array' ? (array.items ?? {}) : undefined;
}

/** How a list pages: by offset, or by the change feed's `after` cursor. */
function paging(params: PyParam[]): 'offset' | 'after' | undefined {
  if (params.some((p) => p.in === 'query' && p.wire === 'offset')) return 'offset';
  if (params.some((p) => p.in === 'query' && p.wire === 'after')) return 'after';
  return undefined;
}
