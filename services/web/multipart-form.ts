/**
 * A multipart/form-data body (a form with a file input) as the account scope's other forms
 * arrive: an object of its fields, the CSRF token among them, so the scope's CSRF check reads
 * it as it reads a urlencoded form. Parsed by the runtime's own Fetch implementation
 * (Response.formData), not by hand. Files are kept whole in memory: the route's body limit
 * bounds them.
 */

export interface UploadedFile {
  filename: string;
  bytes: Uint8Array;
}

export type MultipartFields = Record<string, string | UploadedFile>;

/** The fields, or null when the body is not multipart as its Content-Type says. A field sent twice keeps its first value. */
export async function readMultipartForm(contentType: string, body: Uint8Array): Promise<MultipartFields | null> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return null;
  }
  const fields: MultipartFields = {};
  for (const [name, value] of form) {
    if (Object.hasOwn(fields, name)) continue;
    fields[name] = typeof value === 'string' ? value : { filename: value.name, bytes: new Uint8Array(await value.arrayBuffer()) };
  }
  return fields;
}

export const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' && value !== null && 'bytes' in value && (value as UploadedFile).bytes instanceof Uint8Array;
