/**
 * A preview's sound through WebAudio: the one mix the render muxes (voices, sounds, clips' sound,
 * the soundtrack with its ducking, loudness-normalised), prepared by the server and decoded here
 * once. It is also the player's clock while it plays: frames follow what is heard.
 */
export class Sound {
  private source: AudioBufferSourceNode | undefined;
  /** context.currentTime at which movie time 0 would have played. */
  private origin = 0;

  private constructor(
    private readonly context: AudioContext,
    private readonly buffer: AudioBuffer,
  ) {}

  /** The mix decoded, or undefined when this browser cannot decode it (the player plays silent). */
  static async decode(context: AudioContext, bytes: ArrayBuffer): Promise<Sound | undefined> {
    try {
      return new Sound(context, await context.decodeAudioData(bytes));
    } catch {
      return undefined;
    }
  }

  /** Seconds of sound decoded. */
  get duration(): number {
    return this.buffer.duration;
  }

  /** The loudest sample's magnitude, 0..1 (silence is 0). */
  peak(): number {
    let peak = 0;
    for (let c = 0; c < this.buffer.numberOfChannels; c++) {
      for (const v of this.buffer.getChannelData(c)) peak = Math.max(peak, Math.abs(v));
    }
    return peak;
  }

  /** Whether the page may play sound now (a browser's autoplay policy may hold it until a gesture). */
  get running(): boolean {
    return this.context.state === 'running';
  }

  /** Starts playing from movie second `atSec`; the promise settles once the context runs (or cannot). */
  async start(atSec: number): Promise<void> {
    this.stop();
    if (this.context.state !== 'running') await this.context.resume().catch(() => {});
    const source = this.context.createBufferSource();
    source.buffer = this.buffer;
    source.connect(this.context.destination);
    this.origin = this.context.currentTime - atSec;
    if (atSec < this.buffer.duration) source.start(0, atSec);
    this.source = source;
  }

  /** Movie seconds by the sound's clock. */
  now(): number {
    return this.context.currentTime - this.origin;
  }

  stop(): void {
    if (!this.source) return;
    try {
      this.source.stop();
    } catch {
      // never started (past the end of the sound)
    }
    this.source.disconnect();
    this.source = undefined;
  }
}
