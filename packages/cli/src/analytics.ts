/** `billow analytics rebuild`: revenue analytics priced again from the subscription terms log (issue 30, decision 0097). */
import { Option, type Command } from 'commander';
import type * as BillowAdmin from '@billow/server/admin';
import type { DatabaseHandle } from '@billow/server/admin';

type Server = typeof BillowAdmin;

export interface AnalyticsCommandParts {
  withDatabase<T>(work: (database: DatabaseHandle, billow: Server) => Promise<T>): Promise<T>;
  organizationIdArg(value: string): string;
  environmentArg(value: string): 'sandbox' | 'production';
}

interface Comparison {
  differences: string[];
  applied: boolean;
}

const verdict = ({ differences, applied }: Comparison) =>
  differences.length === 0 ? 'They agree.\n' : `They differ${applied ? ', and the kept ones were replaced' : ''}:\n${differences.map((d) => `  ${d}\n`).join('')}`;

export function registerAnalyticsCommands(program: Command, parts: AnalyticsCommandParts): void {
  const analytics = program.command('analytics').description('Revenue analytics: MRR and its movements, cash and dunning (docs/analytics.md)');
  analytics
    .command('rebuild')
    .description(
      "Price an environment's whole subscription terms log again and compare the movements and the subscriber events with the kept ones; " +
        'exits 1 when they differ (and were not replaced). With --apply, replaces the kept ones with the rebuild',
    )
    .requiredOption('--org <id>', 'organization id (a UUID)', parts.organizationIdArg)
    .addOption(new Option('--env <environment>', 'sandbox or production').argParser(parts.environmentArg).makeOptionMandatory())
    .option('--apply', 'replace the kept movements and cash days with the rebuild when they differ')
    .option('--json', 'print the report as JSON')
    .action(async (options: { org: string; env: 'sandbox' | 'production'; apply?: boolean; json?: boolean }) => {
      const report = await parts.withDatabase((database, { analytics: admin, systemClock }) =>
        admin.rebuildAnalytics(database.db, systemClock, options.org, options.env, options.apply === true),
      );
      if (options.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else {
        process.stdout.write(`Priced ${report.logRows} logged changes again: ${report.rebuilt} movements; ${report.kept} were kept.\n`);
        process.stdout.write(`Subscriber events (trials, active subscriptions): ${report.subscriberEvents.rebuilt} rebuilt; ${report.subscriberEvents.kept} were kept.\n`);
        process.stdout.write(verdict(report));
        const { cash } = report;
        process.stdout.write(`Counted the cash figures again from the payments and invoices: ${cash.rebuilt} days (per currency, of the whole business and of each plan and product); ${cash.kept} were kept.\n`);
        process.stdout.write(verdict(cash));
      }
      const differ = (part: Comparison) => part.differences.length > 0 && !part.applied;
      if (differ(report) || differ(report.cash)) process.exitCode = 1;
    });
}
