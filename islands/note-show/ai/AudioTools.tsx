import { useCallback, useEffect, useRef, useState } from "react";
import { api, call } from "../../lib/api";
import { useElementId } from "../../lib/island-id";
import { concatSamples, encodeWav, SAMPLE_RATE, srtSeconds } from "./wav";

/** A chunk goes to the server every 60 s of audio, or after 3 s of silence (mean amplitude below 0.01). */
const CHUNK_SECONDS = 60;
const SILENCE_SECONDS = 3;
const SILENCE_LEVEL = 0.01;
/** How much of the details the AI sees to continue them. */
const PREVIOUS_DETAILS_CHARS = 500;

type Phase = "idle" | "recording" | "stopped";
interface Receiver {
  stream: MediaStream;
  context: AudioContext;
  source: MediaStreamAudioSourceNode;
  processor: ScriptProcessorNode;
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/**
 * Voice dictation: records 16 kHz mono audio from the chosen microphone, sends it in chunks to
 * POST /api/audio/audio-to-text and applies each completion to the details through their
 * autosave (so it is saved and undone like typing); suggests a title on the 1st, 2nd, 4th, 8th...
 * completion. Stopping leaves the whole recording as a WAV to download.
 */
export function AudioTools({
  details,
  onDetails,
  noteId,
  onTitle,
}: {
  noteId: number;
  details: string;
  onDetails: (details: string) => void;
  onTitle: (title: string) => void;
}) {
  const microphoneId = useElementId(`note-${noteId}-microphone`);
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState<string>();
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [deviceId, setDeviceId] = useState("");
  const [downloadUrl, setDownloadUrl] = useState<string>();
  const [processing, setProcessing] = useState(0);

  const detailsRef = useRef(details);
  detailsRef.current = details;
  const receiver = useRef<Receiver | undefined>(undefined);
  const recording = useRef<Float32Array[]>([]);
  const pending = useRef<Float32Array[]>([]);
  const pendingLength = useRef(0);
  const silentLength = useRef(0);
  const heardSpeech = useRef(false);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const calls = useRef(0);

  // The microphone is released when the tools close.
  const disconnect = useCallback(() => {
    const current = receiver.current;
    receiver.current = undefined;
    if (!current) return;
    current.processor.onaudioprocess = null;
    current.source.disconnect();
    current.processor.disconnect();
    for (const track of current.stream.getTracks()) track.stop();
    void current.context.close();
  }, []);
  useEffect(() => disconnect, [disconnect]);
  // Each recording's URL is released when a new recording starts and when the tools close.
  useEffect(
    () => () => {
      if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    },
    [downloadUrl],
  );

  async function listDevices() {
    try {
      setDevices((await navigator.mediaDevices.enumerateDevices()).filter((device) => device.kind === "audioinput"));
    } catch {
      // no list: the default microphone is used
    }
  }

  async function send(samples: Float32Array, isMidSpeech: boolean) {
    const previous = detailsRef.current;
    // Sent as multipart form fields (the typed client makes a form of a body holding a file).
    const form = {
      uploadAudioFile: new File([encodeWav(samples)], "dictation.wav", { type: "audio/wav" }),
      isMidSpeech: isMidSpeech ? ("true" as const) : ("false" as const),
      previousNoteDetailsToAppendTo: previous.length > PREVIOUS_DETAILS_CHARS ? `...${previous.slice(-PREVIOUS_DETAILS_CHARS)}` : previous,
    };
    setProcessing((n) => n + 1);
    try {
      const answer = await call(api.audio["audio-to-text"].post(form), { silent: true });
      const { deleteFromEnd, completion } = answer.completionFromAudio;
      const current = detailsRef.current;
      const next = current.slice(0, current.length - Math.min(deleteFromEnd, current.length)) + completion;
      if (next !== current) {
        detailsRef.current = next;
        onDetails(next);
      }
      // Mid-speech, the server used the audio up to endTimestamp: the rest goes with the next chunk.
      const seconds = isMidSpeech ? srtSeconds(answer.endTimestamp) : undefined;
      if (seconds !== undefined) {
        const rest = samples.subarray(Math.min(samples.length, Math.round(seconds * SAMPLE_RATE)));
        if (rest.length) {
          pending.current.unshift(rest);
          pendingLength.current += rest.length;
        }
      }
      calls.current += 1;
      if (isPowerOfTwo(calls.current)) {
        const { title } = await call(api.ai["suggest-title"]({ note: noteId }).post(), { silent: true });
        if (title) onTitle(title);
      }
      setError(undefined);
    } catch {
      setError("Failed to process audio");
    } finally {
      setProcessing((n) => n - 1);
    }
  }

  function flush(isMidSpeech: boolean) {
    if (!pendingLength.current) return;
    const samples = concatSamples(pending.current);
    pending.current = [];
    pendingLength.current = 0;
    silentLength.current = 0;
    heardSpeech.current = false;
    queue.current = queue.current.then(() => send(samples, isMidSpeech));
  }

  function receive(input: Float32Array, rate: number) {
    // Resample to 16 kHz when the browser would not record at that rate.
    let samples = input;
    if (rate !== SAMPLE_RATE) {
      const ratio = rate / SAMPLE_RATE;
      samples = new Float32Array(Math.floor(input.length / ratio));
      for (let i = 0; i < samples.length; i++) samples[i] = input[Math.floor(i * ratio)]!;
    }
    recording.current.push(samples);
    pending.current.push(samples);
    pendingLength.current += samples.length;
    let sum = 0;
    for (const sample of samples) sum += Math.abs(sample);
    if (samples.length && sum / samples.length < SILENCE_LEVEL) silentLength.current += samples.length;
    else {
      silentLength.current = 0;
      heardSpeech.current = true;
    }
    if (pendingLength.current >= CHUNK_SECONDS * SAMPLE_RATE) flush(true);
    else if (heardSpeech.current && silentLength.current >= SILENCE_SECONDS * SAMPLE_RATE) flush(false);
  }

  function connect(stream: MediaStream): Receiver {
    let context: AudioContext;
    try {
      context = new AudioContext({ sampleRate: SAMPLE_RATE });
    } catch {
      context = new AudioContext();
    }
    const source = context.createMediaStreamSource(stream);
    const processor = context.createScriptProcessor(4096, 1, 1);
    processor.onaudioprocess = (event) => receive(new Float32Array(event.inputBuffer.getChannelData(0)), context.sampleRate);
    source.connect(processor);
    processor.connect(context.destination);
    return { stream, context, source, processor };
  }

  const constraints = (id: string): MediaStreamConstraints => ({
    audio: id ? { deviceId: { exact: id }, channelCount: 1 } : { channelCount: 1 },
  });

  async function start() {
    setError(undefined);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia(constraints(deviceId));
    } catch {
      setError("Failed to start recording");
      return;
    }
    try {
      receiver.current = connect(stream);
    } catch {
      for (const track of stream.getTracks()) track.stop();
      setError("Failed to connect audio receiver");
      return;
    }
    recording.current = [];
    setDownloadUrl(undefined);
    setPhase("recording");
    void listDevices();
  }

  function stop() {
    disconnect();
    if (heardSpeech.current) flush(false);
    else {
      pending.current = [];
      pendingLength.current = 0;
    }
    setDownloadUrl(URL.createObjectURL(encodeWav(concatSamples(recording.current))));
    setPhase("stopped");
  }

  async function switchDevice(id: string) {
    setDeviceId(id);
    if (phase !== "recording") return;
    try {
      const stream = await navigator.mediaDevices.getUserMedia(constraints(id));
      disconnect();
      receiver.current = connect(stream);
    } catch {
      setError("Failed to switch audio device");
    }
  }

  return (
    <section className="audio-tools" aria-label="Audio tools">
      <div className="field">
        <label htmlFor={microphoneId}>Microphone</label>
        <select
          id={microphoneId}
          value={deviceId}
          onChange={(event) => void switchDevice(event.target.value)}
          onFocus={() => void listDevices()}
        >
          <option value="">Default microphone</option>
          {devices
            .filter((device) => device.deviceId && device.deviceId !== "default")
            .map((device, index) => (
              <option key={device.deviceId} value={device.deviceId}>
                {device.label || `Microphone ${index + 1}`}
              </option>
            ))}
        </select>
      </div>
      <div className="audio-tools-actions">
        {phase === "recording" ? (
          <button type="button" className="button" onClick={stop}>
            Stop recording
          </button>
        ) : (
          <button type="button" className="button primary" onClick={() => void start()}>
            Start recording
          </button>
        )}
        <span role="status" className="muted">
          {phase === "recording" ? "Recording..." : processing > 0 ? "Processing..." : phase === "stopped" ? "Stopped" : ""}
        </span>
        {phase === "stopped" && downloadUrl && (
          <a className="button" href={downloadUrl} download="dictation.wav">
            Download audio
          </a>
        )}
      </div>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </section>
  );
}
