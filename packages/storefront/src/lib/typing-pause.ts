/**
 * Pictures wait for a pause in typing. Chromium draws each SVG `<img>` in a document of its own, on the page's
 * main thread, about 5 ms a picture: a result set's dozen new pictures held the next key (and its request)
 * behind them. While the shopper types into the search box, a result or a dropdown product that appears shows
 * its picture's box without the picture; once no key has come for `pauseMs`, every waiting picture is shown,
 * and a result that was already on screen keeps its picture.
 */
import { startTransition, useEffect, useState } from 'react';

/** Long enough to span the gap between two keys of someone typing a word, short enough not to be noticed. */
export const pauseMs = 150;

type Listener = () => void;

let typing = false;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<Listener>();

/** A key typed into the search box: pictures appearing from now on wait until the typing pauses. */
export function keyTyped(): void {
  typing = true;
  if (timer !== undefined) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    typing = false;
    for (const listener of [...listeners]) listener();
  }, pauseMs);
}

export function isTyping(): boolean {
  return typing;
}

/** Calls `listener` once, at the next pause (at once when nobody is typing); returns the unsubscribe. */
export function onTypingPause(listener: Listener): () => void {
  if (!typing) {
    listener();
    return () => {};
  }
  const once = () => {
    listeners.delete(once);
    listener();
  };
  listeners.add(once);
  return () => listeners.delete(once);
}

/**
 * Whether a picture mounted now may be shown: true when nobody is typing (and on the server), else false until
 * the next pause, then true for good. The change comes as a transition, so a key typed meanwhile goes first.
 */
export function usePictureShown(): boolean {
  const [shown, setShown] = useState(() => !typing);
  useEffect(() => {
    if (shown) return;
    return onTypingPause(() => startTransition(() => setShown(true)));
  }, [shown]);
  return shown;
}
