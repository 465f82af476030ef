import { type RefObject, useEffect, useState } from 'react';

// Windowing for the user table: only the rows in view (plus some either side) are in the DOM,
// with spacer rows standing for the rest, so a table of thousands of loaded users scrolls as
// lightly as one of fifty. Rows have one fixed height.

export interface RowWindow {
  /** First rendered row. */
  start: number;
  /** One past the last rendered row. */
  end: number;
  /** Heights of the spacers above and below the rendered rows (px). */
  before: number;
  after: number;
}

/** The rows to render for a scroll position: those in view and `overscan` more on each side. */
export function rowWindow(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  count: number,
  overscan: number,
): RowWindow {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + viewportHeight) / rowHeight);
  const start = Math.max(0, Math.min(count, first - overscan));
  const end = Math.max(start, Math.min(count, last + overscan));
  return { start, end, before: start * rowHeight, after: (count - end) * rowHeight };
}

/** The window of `count` rows inside the scrolling element, kept current as it scrolls or resizes. */
export function useRowWindow(
  scrollRef: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  overscan: number,
): RowWindow {
  const [view, setView] = useState({ top: 0, height: 0 });
  useEffect(() => {
    const element = scrollRef.current;
    if (element === null) return;
    const measure = () => setView({ top: element.scrollTop, height: element.clientHeight });
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, [scrollRef]);
  return rowWindow(view.top, view.height, rowHeight, count, overscan);
}
