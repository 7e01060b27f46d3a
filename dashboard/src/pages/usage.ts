import { type Ctx, heading } from '../context.ts';
import { h } from '../dom.ts';

function item(term: string, value: string | number, hint?: string): HTMLElement[] {
  return [h('dt', {}, term), h('dd', {}, String(value), hint ? h('span', { class: 'hint' }, ` ${hint}`) : null)];
}

/** Plan, credits (balance, reserved, available), concurrency, rate limit and retention. */
export async function usagePage(ctx: Ctx): Promise<undefined> {
  heading(ctx, 'Usage');
  const u = await ctx.api.usage();
  const reset = new Date(u.rateLimit.reset * 1000);
  ctx.main.append(
    h(
      'div',
      { class: 'stats' },
      h(
        'div',
        { class: 'stat' },
        h('p', { class: 'label' }, 'Available credits'),
        h('p', { class: 'value' }, u.credits.available),
      ),
      h('div', { class: 'stat' }, h('p', { class: 'label' }, 'Plan'), h('p', { class: 'value' }, u.plan)),
      h(
        'div',
        { class: 'stat' },
        h('p', { class: 'label' }, 'Renders in progress'),
        h('p', { class: 'value' }, `${u.concurrency.active} of ${u.concurrency.limit}`),
      ),
    ),
    h(
      'dl',
      { class: 'facts' },
      item('Plan', u.plan),
      item('Key mode', u.mode, u.mode === 'test' ? '(test renders are free and watermarked)' : undefined),
      item('Credit balance', u.credits.balance),
      item('Reserved credits', u.credits.reserved, '(held by renders queued or in progress)'),
      item('Available credits', u.credits.available, '(balance − reserved)'),
      item('Concurrency', `${u.concurrency.active} of ${u.concurrency.limit} renders queued or in progress`),
      item(
        'Rate limit',
        `${u.rateLimit.remaining} of ${u.rateLimit.limit} requests left in a ${u.rateLimit.windowSec}-second window`,
        `(full again by ${reset.toLocaleTimeString()})`,
      ),
      item('Output retention', `${u.retentionDays} days`),
    ),
  );
  return undefined;
}
