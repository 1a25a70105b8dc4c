/**
 * A sleep that wake() cuts short, so a loop shuts down or reacts at once instead of waiting it out.
 * A wake() that arrives while the loop is busy is remembered and ends the next sleep immediately.
 */
export class InterruptibleSleep {
  private interrupt: (() => void) | undefined;
  private wokenEarly = false;

  sleep(ms: number): Promise<void> {
    if (this.wokenEarly) {
      this.wokenEarly = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        clearTimeout(timer);
        if (this.interrupt === done) this.interrupt = undefined;
        resolve();
      };
      timer = setTimeout(done, ms);
      this.interrupt = done;
    });
  }

  wake(): void {
    if (this.interrupt) this.interrupt();
    else this.wokenEarly = true;
  }
}
