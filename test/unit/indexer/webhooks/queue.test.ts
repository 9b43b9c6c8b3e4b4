import { describe, expect, it } from 'vitest';
import { deliveryJobOptions, REPLAY_PRIORITY } from '../../../../indexer/webhooks/queue.ts';

describe('a delivery job’s options', () => {
  it('queues a first delivery without a priority (BullMQ takes those first) and a replay behind them', () => {
    expect(deliveryJobOptions({ endpointId: 'whe_a', eventId: 7, generation: 0 })).toEqual({ jobId: 'whe_a.evt_7.g0' });
    expect(deliveryJobOptions({ endpointId: 'whe_a', eventId: 7, generation: 2 })).toEqual({
      jobId: 'whe_a.evt_7.g2',
      priority: REPLAY_PRIORITY,
    });
    expect(REPLAY_PRIORITY).toBeGreaterThan(0);
  });
});
