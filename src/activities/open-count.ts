/**
 * How many of something a worker has running (streams, heartbeating activities), counted from
 * `enter` until the function it returns is called. The budgets built on it (StreamLoad,
 * HeartbeatLoad) widen every member's pace evenly as the count grows.
 */
export class OpenCount {
  protected open = 0;

  /** Counts one until the returned function is called (again: no effect). */
  enter(): () => void {
    this.open += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.open -= 1;
    };
  }
}
