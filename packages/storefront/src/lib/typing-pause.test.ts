import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isTyping, keyTyped, onTypingPause, pauseMs } from './typing-pause.ts';

describe('typing pause', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    // Let any pending pause end, so the next test starts with nobody typing.
    vi.runAllTimers();
    vi.useRealTimers();
  });

  it('calls a listener at once when nobody is typing', () => {
    const listener = vi.fn();
    onTypingPause(listener);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('holds listeners while keys come closer than the pause, then calls each once', () => {
    keyTyped();
    expect(isTyping()).toBe(true);
    const first = vi.fn();
    const second = vi.fn();
    onTypingPause(first);
    onTypingPause(second);
    vi.advanceTimersByTime(pauseMs - 1);
    keyTyped();
    vi.advanceTimersByTime(pauseMs - 1);
    expect(first).not.toHaveBeenCalled();
    expect(isTyping()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(isTyping()).toBe(false);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    // A later pause does not call them again.
    keyTyped();
    vi.advanceTimersByTime(pauseMs);
    expect(first).toHaveBeenCalledTimes(1);
  });

  it('does not call a listener that unsubscribed before the pause', () => {
    keyTyped();
    const listener = vi.fn();
    const unsubscribe = onTypingPause(listener);
    unsubscribe();
    vi.advanceTimersByTime(pauseMs);
    expect(listener).not.toHaveBeenCalled();
  });
});
