/** One sampled colour: the decoders produce them, the analyser reads them. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}
