import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { NotFoundError } from '../../api/errors.ts';
import { csvProblemText, onFileLines, readPositionsCsv } from '../../api/routes/portfolios/positions-csv.ts';
import { readPortfolioSummary } from '../../api/routes/portfolios/read-positions.ts';
import { type PortfolioOwner, readPortfolios } from '../../api/routes/portfolios/read.ts';
import type { PortfolioRow, PositionsReport } from '../../api/routes/portfolios/row.ts';
import type { PortfolioSummary } from '../../api/routes/portfolios/summary-row.ts';
import { addPositionsWrite } from '../../api/routes/portfolios/write.ts';
import { FollowedGroupTooLargeError, LimitReachedError, PositionLimitReachedError } from '../../api/writes/limits.ts';
import { BULK_WRITE_BODY_LIMIT, bodySize } from '../../api/writes/body.ts';
import { loadConfig } from '../../config.ts';
import { getClient } from '../../control/billing/clients.ts';
import { effectivePlan, getPlan } from '../../control/billing/plans.ts';
import type { Sql } from '../../control/db/sql.ts';
import { portfolioClientOf } from '../../control/portfolios/owner.ts';
import { openRuntime, type Runtime } from '../../process/runtime.ts';
import { dayArg, scriptFriendly } from '../control-args.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput, USAGE_EXIT } from '../output.ts';
import { printable } from '../terminal-text.ts';

/**
 * Portfolios, for operators acting for a client (customers use the API or the account page):
 * import a CSV of positions, list a client's portfolios, a portfolio's summary. Each acts as the
 * portfolio's owner through the API's own functions, so the plan's limits, the line checks and
 * the figures are the ones the client gets.
 */

async function withRuntime<T>(run: (runtime: Runtime) => Promise<T>): Promise<T> {
  const runtime = await openRuntime(loadConfig(), { name: 'portfolios' });
  try {
    return await run(runtime);
  } finally {
    await runtime.close();
  }
}

/** A client as the portfolio functions take their caller: with its plan, as the API's Principal has it. */
async function ownerById(sql: Sql, clientId: string): Promise<PortfolioOwner> {
  const client = await getClient(sql, clientId);
  if (!client) throw new CliError(`no client ${clientId}`, 1, 'not_found');
  return { client, plan: effectivePlan(await getPlan(sql, client.plan), client) };
}

async function ownerOfPortfolio(sql: Sql, portfolioId: string): Promise<PortfolioOwner> {
  const clientId = await portfolioClientOf(sql, portfolioId);
  if (clientId === undefined) throw new CliError(`no portfolio ${portfolioId}`, 1, 'not_found');
  return ownerById(sql, clientId);
}

/** The API's typed refusals as CLI errors with the API's codes. */
function asCliError(err: unknown): never {
  if (err instanceof NotFoundError) throw new CliError(err.message, 1, 'not_found');
  if (err instanceof PositionLimitReachedError || err instanceof LimitReachedError || err instanceof FollowedGroupTooLargeError)
    throw new CliError(err.message, 1, err.code);
  throw err;
}

const dollars = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Lines of a file a client or a bidder wrote: shown with their control and bidi characters escaped. */
function reportText(file: string, r: PositionsReport): string {
  const lines = [
    `${file} -> ${r.portfolio_id}: ${r.created} created (${r.unresolved} not loaded yet), ${r.rejected} rejected`,
    ...r.lines.map((l) =>
      l.status === 'created'
        ? `line ${l.line}: created ${l.position.id} ${l.position.county} ${l.position.certificate_number} ${l.position.tax_year}${l.position.resolved ? '' : ' (not loaded yet)'}`
        : `line ${l.line}: rejected (${l.error.code}) ${l.error.field}: ${l.error.message}`,
    ),
  ];
  return lines.map(printable).join('\n');
}

function summaryText(s: PortfolioSummary): string {
  const statuses = Object.entries(s.by_status)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`);
  const windows = (['within_7_days', 'within_30_days', 'within_90_days'] as const).map(
    (w) => `${w.replaceAll('_', ' ')}: deed application opens ${s.deadlines[w].deed_application_opens}, expires ${s.deadlines[w].expires}`,
  );
  return [
    `${s.portfolio_id} as of ${s.as_of}: ${s.positions} positions (${s.unresolved} not loaded yet)`,
    `by status: ${statuses.length > 0 ? statuses.join(', ') : 'none'}`,
    `outstanding: ${s.outstanding.positions} positions, face ${dollars(s.outstanding.face_amount)} USD, payoff ${dollars(s.outstanding.payoff_as_of)} USD, interest accrued ${dollars(s.outstanding.interest_accrued)} USD`,
    `redeemed: ${s.redeemed.positions} positions, face ${dollars(s.redeemed.face_amount)} USD, interest earned ${dollars(s.redeemed.interest_earned)} USD`,
    ...s.interest_earned_by_year.map((y) => `  ${y.year}: ${y.positions} redeemed, interest earned ${dollars(y.interest_earned)} USD`),
    ...windows,
  ].join('\n');
}

const portfolioLine = (p: PortfolioRow) =>
  `${p.id}  ${JSON.stringify(p.name)}  follows ${p.follow_holder_group ?? 'no holder group'}  created ${p.created_at}`;

export function portfoliosCommand(program: Command): void {
  const portfolios = scriptFriendly(program.command('portfolios')).description(
    "a client's portfolios: import a CSV of positions, list, summary",
  );

  portfolios
    .command('import')
    .description('add the positions of a CSV file (county,certificate_number,tax_year[,acquired_on,acquired_amount,note]) to a portfolio')
    .argument('<portfolio-id>', 'the portfolio (pf_…); its owner is the client the positions are added for')
    .argument(
      '<file>',
      `CSV file, UTF-8, at most ${bodySize(BULK_WRITE_BODY_LIMIT)} and 10,000 positions; a first line naming the columns is optional`,
    )
    .action(async (portfolioId: string, file: string, _opts, command: Command) => {
      let bytes: Buffer;
      try {
        // Refused before reading a file that could not be sent whole anyway.
        if (statSync(file).size > BULK_WRITE_BODY_LIMIT)
          throw new CliError(`${file}: the file is over ${bodySize(BULK_WRITE_BODY_LIMIT)}: split it`, USAGE_EXIT);
        bytes = readFileSync(file);
      } catch (err) {
        if (err instanceof CliError) throw err;
        throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, USAGE_EXIT);
      }
      // A malformed file adds nothing: the whole file is read before any line is written.
      const csv = readPositionsCsv(bytes);
      if (!csv.ok) throw new CliError(`${file}: ${csvProblemText(csv)}`, 1, 'invalid_file');
      await withRuntime(async (runtime) => {
        const owner = await ownerOfPortfolio(runtime.sql, portfolioId);
        let report: PositionsReport;
        try {
          report = onFileLines((await addPositionsWrite(runtime, owner, portfolioId, { positions: csv.positions })).data, csv.lines);
        } catch (err) {
          asCliError(err);
        }
        createOutput(wantsJson(command)).result(report, (r) => reportText(file, r));
        // Scripts see a partial import: some lines were not added.
        if (report.rejected > 0) process.exitCode = 1;
      });
    });

  portfolios
    .command('list')
    .description("a client's portfolios, oldest first")
    .requiredOption('--client <id>', 'client id')
    .action(async (opts: { client: string }, command: Command) => {
      await withRuntime(async (runtime) => {
        const owner = await ownerById(runtime.sql, opts.client);
        const rows: PortfolioRow[] = [];
        for (let offset = 0; ; offset += 100) {
          const page = await readPortfolios(runtime, owner, { limit: 100, offset });
          rows.push(...page.rows);
          if (rows.length >= page.total || page.rows.length === 0) break;
        }
        createOutput(wantsJson(command)).result(rows, (list) =>
          list.length === 0
            ? `client ${printable(opts.client)} has no portfolios`
            : list.map((p) => printable(portfolioLine(p))).join('\n'),
        );
      });
    });

  portfolios
    .command('summary')
    .description("a portfolio's summary on a day: positions by status, what is owed, what was earned, deadlines ahead")
    .argument('<portfolio-id>', 'the portfolio (pf_…)')
    .option('--as-of <day>', 'the day to answer for, YYYY-MM-DD (default: today in Florida)', (v: string) => dayArg('--as-of', v))
    .action(async (portfolioId: string, opts: { asOf?: string }, command: Command) => {
      await withRuntime(async (runtime) => {
        const owner = await ownerOfPortfolio(runtime.sql, portfolioId);
        let summary: PortfolioSummary;
        try {
          summary = (await readPortfolioSummary(runtime, owner, { id: portfolioId }, { as_of: opts.asOf })).data;
        } catch (err) {
          asCliError(err);
        }
        createOutput(wantsJson(command)).result(summary, summaryText);
      });
    });
}
