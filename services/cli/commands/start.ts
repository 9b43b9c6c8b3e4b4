import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { runLocalStack } from '../../process/run-stack.ts';

/** `npm start`: the whole local stack, assembled in services/process/run-stack.ts. */
export function startCommand(program: Command): void {
  program
    .command('start')
    .description('run the whole local stack (OpenSearch node, worker, API) with demo data')
    .option('--no-demo', 'do not load the demo data set into empty indices')
    .action(async (opts: { demo: boolean }) => {
      await runLocalStack(loadConfig(), opts);
    });
}
