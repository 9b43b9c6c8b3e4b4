import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../api/errors.ts';
import { csvProblemText, onFileLines, readPositionsCsv } from '../../api/routes/portfolios/positions-csv.ts';
import { addPositionsWrite } from '../../api/routes/portfolios/write.ts';
import { BULK_WRITE_BODY_LIMIT, bodySize } from '../../api/writes/body.ts';
import { PositionLimitReachedError } from '../../api/writes/limits.ts';
import type { PageContext } from '../context.ts';
import { isUploadedFile, readMultipartForm } from '../multipart-form.ts';
import { ownPortfolioRow, portfolioNotFoundPage, portfolioOwnerOf, portfolioRefusal } from '../portfolio-owner.ts';
import { reportView } from '../portfolio-view.ts';
import { message, page } from '../render.ts';
import { requireUser, signedIn } from '../session.ts';

/** The file limit in words: the API's limit on a list of positions, the same file through either door. */
export const MOST_CSV_BYTES_WORDS = bodySize(BULK_WRITE_BODY_LIMIT);

/** A form's parts around the file (boundaries, headers, the CSRF token) fit easily in this. */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * POST /account/portfolios/:id/positions: a CSV file of positions (positions-csv.ts, the CLI's
 * reader) added by the API's own write, answered with the write's report line by line,
 * numbered as the file's lines. A file the reader refuses adds nothing and says which line is at
 * fault. Registered in a scope of its own: only this route takes multipart bodies, and only it
 * takes files this large (every other form stays at 16 KB).
 */
export function portfolioUploadPage(scope: FastifyInstance, ctx: PageContext): void {
  void scope.register(async (upload) => {
    upload.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: BULK_WRITE_BODY_LIMIT + MULTIPART_OVERHEAD },
      // Not multipart after all: no fields, so the CSRF check refuses it as any form without its token.
      async (request: FastifyRequest, body: Buffer) => (await readMultipartForm(String(request.headers['content-type']), body)) ?? {},
    );

    upload.setErrorHandler((err: FastifyError, request, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return message(request, reply, 413, {
          title: 'The file is too large',
          text: `A file of positions takes at most ${MOST_CSV_BYTES_WORDS} (10,000 positions). Nothing was added: split the file and upload each part.`,
          link: { href: backTo(request), label: 'Back to the portfolio' },
        });
      // Everything else as every page answers it (the account scope's handler).
      throw err;
    });

    upload.post('/portfolios/:id/positions', { preHandler: requireUser }, async (request, reply) => {
      const account = signedIn(request);
      const owner = await portfolioOwnerOf(ctx, account);
      const portfolio = await ownPortfolioRow(ctx, owner, request);
      if (!portfolio) return portfolioNotFoundPage(request, reply);
      const back = { href: `/account/portfolios/${portfolio.id}`, label: 'Back to the portfolio' };
      const refusal = portfolioRefusal(account);
      if (refusal) return message(request, reply, 403, { title: 'No positions added', text: refusal, link: back });

      const file = (request.body as Record<string, unknown> | undefined)?.file;
      const refused = (text: string) =>
        page(request, reply, 'portfolio-report', { title: 'The file was not read', portfolio, problem: text, report: null }, 400);
      if (!isUploadedFile(file) || file.bytes.byteLength === 0) return refused('Choose a CSV file of positions to upload.');
      const csv = readPositionsCsv(file.bytes);
      if (!csv.ok) return refused(`${file.filename || 'The file'}: ${csvProblemText(csv)}. Nothing was added.`);
      try {
        const report = onFileLines(
          (await addPositionsWrite(ctx, owner, portfolio.id, { positions: csv.positions }, ctx.clock())).data,
          csv.lines,
        );
        return page(request, reply, 'portfolio-report', {
          title: `Upload to ${portfolio.name}`,
          portfolio,
          filename: file.filename,
          problem: null,
          report: reportView(report, ctx.registry),
        });
      } catch (err) {
        if (err instanceof PositionLimitReachedError)
          return message(request, reply, 403, { title: 'No positions added', text: capitalized(err.message), link: back });
        // Deleted meanwhile, from another tab or through the API.
        if (err instanceof NotFoundError) return portfolioNotFoundPage(request, reply);
        throw err;
      }
    });
  });
}

const capitalized = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;

/** The portfolio's page, from the posted path (the body may not have been read). */
function backTo(request: FastifyRequest): string {
  const id = (request.params as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && /^pf_[A-Za-z0-9_-]+$/.test(id) ? `/account/portfolios/${id}` : '/account/portfolios';
}
