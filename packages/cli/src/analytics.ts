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

export function registerAnalyticsCommands(program: Command, parts: AnalyticsCommandParts): void {
  const analytics = program.command('analytics').description('Revenue analytics: MRR and its movements (docs/analytics.md)');
  analytics
    .command('rebuild')
    .description(
      "Price an environment's whole subscription terms log again and compare the movements and the subscriber events with the kept ones; " +
        'exits 1 when they differ (and were not replaced). With --apply, replaces the kept ones with the rebuild',
    )
    .requiredOption('--org <id>', 'organization id (a UUID)', parts.organizationIdArg)
    .addOption(new Option('--env <environment>', 'sandbox or production').argParser(parts.environmentArg).makeOptionMandatory())
    .option('--apply', 'replace the kept movements with the rebuild when they differ')
    .option('--json', 'print the report as JSON')
    .action(async (options: { org: string; env: 'sandbox' | 'production'; apply?: boolean; json?: boolean }) => {
      const report = await parts.withDatabase((database, { analytics: admin, systemClock }) =>
        admin.rebuildAnalytics(database.db, systemClock, options.org, options.env, options.apply === true),
      );
      if (options.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else {
        const agreed = report.differences.length === 0;
        process.stdout.write(`Priced ${report.logRows} logged changes again: ${report.rebuilt} movements; ${report.kept} were kept.\n`);
        process.stdout.write(`Subscriber events (trials, active subscriptions): ${report.subscriberEvents.rebuilt} rebuilt; ${report.subscriberEvents.kept} were kept.\n`);
        process.stdout.write(agreed ? 'They agree.\n' : `They differ${report.applied ? ', and the kept ones were replaced' : ''}:\n${report.differences.map((d) => `  ${d}\n`).join('')}`);
      }
      if (report.differences.length > 0 && !report.applied) process.exitCode = 1;
    });
}
