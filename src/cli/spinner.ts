/** A one-line spinner on stderr, only when stderr is a TTY; a no-op otherwise. */
export type Spinner = { update(text: string): void; stop(): void };

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export function startSpinner(text: string, stream: NodeJS.WriteStream = process.stderr): Spinner {
  if (!stream.isTTY) return { update() {}, stop() {} };
  const started = Date.now();
  let label = text;
  let frame = 0;
  const draw = () => {
    const seconds = Math.floor((Date.now() - started) / 1000);
    stream.write(`\r\x1b[K${FRAMES[frame++ % FRAMES.length]} ${label} ${seconds}s`);
  };
  draw();
  const timer = setInterval(draw, 80);
  return {
    update(next) {
      label = next;
    },
    stop() {
      clearInterval(timer);
      stream.write("\r\x1b[K");
    },
  };
}
