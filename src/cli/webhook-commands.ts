import type { Command } from 'commander';
import type { WebhooksService } from '../modules/webhooks/webhooks.service';
import type { WebhookWorker } from '../modules/webhooks/webhook-worker';
import type { CliOutput } from './user-commands';

export interface WebhookCliServices {
  webhooks: WebhooksService;
  worker: WebhookWorker;
}

type Run = (action: (services: WebhookCliServices) => Promise<CliOutput>, json: boolean) => Promise<void>;

/** Resolves on SIGTERM or SIGINT: how `webhooks:work` is told to stop. */
function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => resolve(signal);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

/**
 * `webhooks:list`, `webhooks:queue`, `webhooks:replay`: what operators need when a receiver was down;
 * `webhooks:work`: the worker alone, in the foreground (instances may then run with WEBHOOKS_WORKER=false).
 */
export function addWebhookCommands(program: Command, run: Run): void {
  program
    .command('webhooks:list')
    .description('list webhook endpoints with their state and delivery counts')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      run(async ({ webhooks }) => {
        const { endpoints } = await webhooks.queue();
        const lines = endpoints.map(
          (e) =>
            `#${e.id} ${e.status} ${e.url} [${e.events.join(', ')}] pending ${e.pending}, failed ${e.failed}` +
            (e.disabled_reason ? `\n    ${e.disabled_reason}` : ''),
        );
        return { text: lines.length === 0 ? 'no webhooks' : lines.join('\n'), json: endpoints };
      }, o.json === true),
    );

  program
    .command('webhooks:queue')
    .description('show the delivery queue: pending, delivered and failed per endpoint, and the dispatcher lag')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      run(async ({ webhooks }) => {
        const state = await webhooks.queue();
        const lines = [
          `writes not yet dispatched: ${state.writes_not_dispatched}`,
          ...state.endpoints.map(
            (e) =>
              `#${e.id} pending ${e.pending} (next ${e.next_attempt_utc ?? '-'}), delivered ${e.delivered}, failed ${e.failed}`,
          ),
        ];
        return { text: lines.join('\n'), json: state };
      }, o.json === true),
    );

  program
    .command('webhooks:replay')
    .description('send a delivery again, with the same delivery id')
    .argument('<delivery-id>', 'the delivery id (X-Cal-Webhook-Id)')
    .option('--json', 'print JSON')
    .action((id: string, o: { json?: boolean }) =>
      run(async ({ webhooks }) => {
        const delivery = await webhooks.redeliverById(id);
        return { text: `delivery ${delivery.id} is due again (${delivery.type})`, json: delivery };
      }, o.json === true),
    );

  program
    .command('webhooks:work')
    .description('run the webhook worker in the foreground until SIGTERM or SIGINT')
    .action(() =>
      run(async ({ worker }) => {
        // The server's rounds: endpoints apart, a round not waiting for a slow receiver.
        worker.start();
        // The worker's timers do not hold the process open (they are the server's too): this one does.
        const keepAlive = setInterval(() => undefined, 60_000);
        const signal = await stopSignal();
        clearInterval(keepAlive);
        await worker.stop();
        return { text: `stopped on ${String(signal)}`, json: { stopped: signal } };
      }, false),
    );
}
