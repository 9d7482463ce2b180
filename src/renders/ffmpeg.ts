// ffmpeg from the system: found once at start-up (FFMPEG_PATH), then one encoder process per render fed JPEG frames on its stdin.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import type { RenderFormat } from './renders.tables';

/** What {@link probeFfmpeg} found: the version line, or why there is none (one plain line for the log). */
export type FfmpegProbe = { path: string; version: string; missing?: undefined } | { path: string; version?: undefined; missing: string };

/**
 * Runs `<FFMPEG_PATH> -version` once and checks it can encode H.264 (libx264), as Debian's package can.
 *
 * @example
 * const found = await probeFfmpeg('ffmpeg');
 * if (found.missing) log.warn(found.missing); // "ffmpeg not found (FFMPEG_PATH=ffmpeg): ..."
 */
export function probeFfmpeg(path: string): Promise<FfmpegProbe> {
  const missing = (why: string) => ({
    path,
    missing: `ffmpeg ${why} (FFMPEG_PATH=${path}): video and GIF renders are off until it is installed (Debian: apt-get install ffmpeg)`,
  });
  return new Promise((resolve) => {
    execFile(path, ['-hide_banner', '-encoders'], { timeout: 10_000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout) => {
      if (error) return resolve(missing((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : `did not run (${error.message.split('\n')[0]})`));
      if (!/\blibx264\b/.test(stdout)) return resolve(missing('has no H.264 encoder (libx264)'));
      execFile(path, ['-version'], { timeout: 10_000 }, (err, out) => {
        resolve(err ? missing('did not run') : { path, version: out.split('\n')[0]?.trim() ?? 'ffmpeg' });
      });
    });
  });
}

export interface EncoderOptions {
  ffmpeg: string;
  format: RenderFormat;
  width: number;
  height: number;
  fps: number;
  /** Where the file is written (a temporary file: the MP4's index is moved to the front once it is whole). */
  output: string;
}

/**
 * The arguments of one encode: JPEG frames at a constant rate on stdin; out H.264 (yuv420p, faststart) or a
 * GIF with a palette made for this video (palettegen, then paletteuse with light dithering).
 */
export function encoderArgs(o: EncoderOptions): string[] {
  const input = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'image2pipe', '-c:v', 'mjpeg', '-framerate', String(o.fps), '-i', 'pipe:0'];
  const size = `scale=${o.width}:${o.height}:flags=lanczos`;
  if (o.format === 'mp4') {
    return [
      ...input,
      '-vf', `${size},format=yuv420p`,
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-tune', 'stillimage',
      '-pix_fmt', 'yuv420p', '-r', String(o.fps), '-movflags', '+faststart', '-an',
      '-f', 'mp4', o.output,
    ];
  }
  return [
    ...input,
    '-vf', `${size},split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle`,
    '-loop', '0', '-f', 'gif', o.output,
  ];
}

/** One running ffmpeg: write frames, then `finish()`; `kill()` ends it at once (a cancelled render). */
export interface Encoder {
  write(frame: Buffer): Promise<void>;
  finish(): Promise<void>;
  kill(): void;
}

/**
 * Starts ffmpeg for one render. Writes wait for the pipe to drain, so a slow encoder slows the capture
 * instead of buffering frames in memory. A failure carries ffmpeg's last error lines.
 */
export function startEncoder(o: EncoderOptions): Encoder {
  const child: ChildProcess = spawn(o.ffmpeg, encoderArgs(o), { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  let exitError: Error | null = null;
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', (error) => {
      exitError = error;
      reject(error);
    });
    child.on('close', (code, signal) => {
      if (code === 0) return resolve();
      exitError = new Error(`ffmpeg ${signal ? `was ended (${signal})` : `exited with ${code}`}${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : ''}`);
      reject(exitError);
    });
  });
  exited.catch(() => {});
  const stdin = child.stdin!;
  stdin.on('error', () => {});
  return {
    write(frame) {
      if (exitError) return Promise.reject(exitError);
      return new Promise((resolve, reject) => {
        const ok = stdin.write(frame, (error) => (error ? reject(exitError ?? error) : undefined));
        if (ok) resolve();
        else stdin.once('drain', resolve);
        exited.catch(reject);
      });
    },
    async finish() {
      stdin.end();
      await exited;
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
