/**
 * Layout checks and transfer figures the shell's scenarios share: nothing wider than the
 * screen, the header pinned at the top, a control on screen, and the bytes a screen cost.
 */
import type { CDPSession, Locator, Page } from '@playwright/test';
import { expect } from './helpers';

/** The document is never wider nor taller than the window, and the header sits at its top. */
export async function expectFits(page: Page, name: string): Promise<void> {
  // Strings, not functions: these files are type-checked for Node, without the DOM's types.
  const m = (await page.evaluate(`(() => {
    const head = document.querySelector('header.top').getBoundingClientRect();
    const root = document.documentElement;
    return { scrollW: root.scrollWidth, scrollH: root.scrollHeight, w: innerWidth, h: innerHeight, headTop: head.top, headH: head.height, scrollY };
  })()`)) as {
    scrollW: number;
    scrollH: number;
    w: number;
    h: number;
    headTop: number;
    headH: number;
    scrollY: number;
  };
  expect(m.scrollW, `${name}: the page is wider than the screen`).toBeLessThanOrEqual(m.w);
  expect(m.scrollH, `${name}: the page is taller than the screen (the header would scroll away)`).toBeLessThanOrEqual(
    m.h,
  );
  expect({ top: m.headTop, scrollY: m.scrollY }, `${name}: the header is at the top`).toEqual({ top: 0, scrollY: 0 });
  expect(m.headH).toBeGreaterThan(20);
}

/**
 * Every control the author can see lies wholly across the screen's width (a control cut by
 * the right edge, as Send was, fails): buttons, links, fields, in view or scrolled to.
 */
export async function expectControlsOnScreen(page: Page, name: string): Promise<void> {
  const off = (await page.evaluate(`(() => {
    const out = [];
    for (const el of document.querySelectorAll('button, a[href], input, select, textarea, [contenteditable="true"], [role="button"]')) {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // Inside a box that scrolls sideways, a control is reachable when the box is: its edges count.
      let left = r.left;
      let right = r.right;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (/(auto|scroll)/.test(s.overflowX) && p.scrollWidth > p.clientWidth) {
          const pr = p.getBoundingClientRect();
          left = Math.max(left, pr.left);
          right = Math.min(right, pr.right);
        }
      }
      const name = (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40);
      if (left < -0.5 || right > innerWidth + 0.5) out.push(el.tagName.toLowerCase() + ' “' + name + '” at ' + Math.round(r.left) + '–' + Math.round(r.right));
    }
    return out;
  })()`)) as string[];
  expect(off, `${name}: controls cut by the screen's edge`).toEqual([]);
}

/** The control is wholly inside the window (after scrolling it into view, as a tap would; a sliding drawer has come to rest). */
export async function expectOnScreen(locator: Locator): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const size = locator.page().viewportSize()!;
  await expect
    .poll(async () => {
      const box = await locator.boundingBox();
      if (!box) return 'not rendered';
      const inside =
        box.x >= -0.5 &&
        box.y >= -0.5 &&
        box.x + box.width <= size.width + 0.5 &&
        box.y + box.height <= size.height + 0.5;
      return inside
        ? 'on screen'
        : `at ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)}`;
    })
    .toBe('on screen');
}

/** Bytes over the wire (headers and encoded bodies, as DevTools' “transferred”), per request. */
export class TransferMeter {
  private readonly urls = new Map<string, string>();
  private readonly bytes = new Map<string, number>();
  private constructor(private readonly cdp: CDPSession) {}

  static async attach(page: Page): Promise<TransferMeter> {
    const cdp = await page.context().newCDPSession(page);
    const meter = new TransferMeter(cdp);
    cdp.on('Network.requestWillBeSent', (e) => meter.urls.set(e.requestId, e.request.url));
    // dataReceived counts streams that never finish (the session feed); loadingFinished has the
    // exact total of the others.
    cdp.on('Network.dataReceived', (e) =>
      meter.bytes.set(e.requestId, (meter.bytes.get(e.requestId) ?? 0) + e.encodedDataLength),
    );
    cdp.on('Network.loadingFinished', (e) => meter.bytes.set(e.requestId, e.encodedDataLength));
    cdp.on('Network.responseReceived', (e) => {
      // Headers arrive before the body; loadingFinished's total includes them.
      if (!meter.bytes.has(e.requestId)) meter.bytes.set(e.requestId, e.response.encodedDataLength ?? 0);
    });
    await cdp.send('Network.enable');
    // A cold visit: nothing from the memory or disk cache.
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    return meter;
  }

  /** Starts a new count (a new screen). */
  reset(): void {
    this.urls.clear();
    this.bytes.clear();
  }

  /** Waits until nothing new has arrived for `quietMs` (open streams aside: they only trickle). */
  async settle(quietMs = 800, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = -1;
    let since = Date.now();
    while (Date.now() < deadline) {
      const now = this.urls.size * 1e9 + this.total().bytes;
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since >= quietMs) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Every URL requested since the last reset. */
  requested(): string[] {
    return [...this.urls.values()];
  }

  /** Total bytes since the last reset, and the largest requests. */
  total(): { bytes: number; top: { url: string; bytes: number }[] } {
    const rows = [...this.bytes.entries()].map(([id, bytes]) => ({ url: this.urls.get(id) ?? id, bytes }));
    return { bytes: rows.reduce((n, r) => n + r.bytes, 0), top: rows.sort((a, b) => b.bytes - a.bytes).slice(0, 4) };
  }
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
