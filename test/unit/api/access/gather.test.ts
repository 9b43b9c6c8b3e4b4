import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createGather } from '../../../../services/api/access/gather.ts';

describe('createGather', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts what arrives within the window in one turn, in arrival order, once the window ends', () => {
    const { hold } = createGather(1);
    const started: string[] = [];
    hold(() => started.push('a'));
    vi.advanceTimersByTime(0.5);
    hold(() => started.push('b'));
    hold(() => started.push('c'));
    expect(started).toEqual([]);
    vi.advanceTimersByTime(0.5);
    expect(started).toEqual(['a', 'b', 'c']);
  });

  it('a start held after a group was released waits for a window of its own', () => {
    const { hold } = createGather(1);
    const started: string[] = [];
    hold(() => started.push('a'));
    vi.advanceTimersByTime(1);
    hold(() => started.push('b'));
    expect(started).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(started).toEqual(['a', 'b']);
  });

  it('a start that holds another puts it in the next group, not the one being released', () => {
    const { hold } = createGather(1);
    const started: string[] = [];
    hold(() => {
      started.push('a');
      hold(() => started.push('again'));
    });
    vi.advanceTimersByTime(1);
    expect(started).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(started).toEqual(['a', 'again']);
  });

  it('release() starts the held group at once, and the window ends with it', () => {
    const { hold, release } = createGather(1);
    const started: string[] = [];
    hold(() => started.push('a'));
    hold(() => started.push('b'));
    release();
    expect(started).toEqual(['a', 'b']);
    vi.advanceTimersByTime(1);
    expect(started).toEqual(['a', 'b']);
    release();
    expect(started).toEqual(['a', 'b']);
  });
});
