import type { Rgb } from './rgb';

export interface JpegHeader {
  width: number;
  height: number;
  components: number;
  /** Baseline or extended sequential Huffman: the kinds this decoder reads. */
  sequential: boolean;
}

interface Component {
  id: number;
  h: number;
  v: number;
  quantTable: number;
}

interface Huffman {
  maxCode: Int32Array;
  valueOffset: Int32Array;
  symbols: Uint8Array;
}

const buildHuffman = (counts: Uint8Array, symbols: Uint8Array): Huffman => {
  const maxCode = new Int32Array(18).fill(-1);
  const valueOffset = new Int32Array(18);
  let code = 0;
  let index = 0;
  for (let length = 1; length <= 16; length += 1) {
    const count = counts[length - 1]!;
    valueOffset[length] = index - code;
    if (count > 0) {
      code += count;
      index += count;
      maxCode[length] = code - 1;
    }
    code <<= 1;
  }
  return { maxCode, valueOffset, symbols };
};

class BitReader {
  private buffer = 0;
  private bits = 0;
  /** Set once a marker (or the end) is reached: further bits read as zeros. */
  private ended = false;

  constructor(
    private readonly data: Buffer,
    public at: number,
  ) {}

  bit(): number {
    if (this.bits === 0) {
      let byte = 0;
      if (!this.ended && this.at < this.data.length) {
        byte = this.data[this.at]!;
        if (byte === 0xff) {
          const next = this.data[this.at + 1];
          if (next === 0x00) this.at += 2;
          else {
            this.ended = true;
            byte = 0;
          }
        } else this.at += 1;
      }
      this.buffer = byte;
      this.bits = 8;
    }
    this.bits -= 1;
    return (this.buffer >> this.bits) & 1;
  }

  receive(length: number): number {
    let value = 0;
    for (let i = 0; i < length; i += 1) value = (value << 1) | this.bit();
    return value;
  }

  decode(table: Huffman): number {
    let code = 0;
    for (let length = 1; length <= 16; length += 1) {
      code = (code << 1) | this.bit();
      if (code <= table.maxCode[length]!) return table.symbols[table.valueOffset[length]! + code] ?? 0;
    }
    throw new Error('bad Huffman code');
  }

  /** Past the RSTn marker the encoder put after a restart interval. */
  restart(): void {
    this.bits = 0;
    this.ended = false;
    while (this.at + 1 < this.data.length) {
      if (this.data[this.at] === 0xff && this.data[this.at + 1]! >= 0xd0 && this.data[this.at + 1]! <= 0xd7) {
        this.at += 2;
        return;
      }
      this.at += 1;
    }
  }
}

const extend = (value: number, length: number): number =>
  length === 0 ? 0 : value < 1 << (length - 1) ? value - (1 << length) + 1 : value;

/** Frame header of a JPEG, or null when no start-of-frame is found. */
export const readJpegHeader = (body: Buffer): JpegHeader | null => {
  for (let at = 2; at + 9 < body.length;) {
    if (body[at] !== 0xff) return null;
    const marker = body[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = body.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return {
        height: body.readUInt16BE(at + 5),
        width: body.readUInt16BE(at + 7),
        components: body[at + 9]!,
        sequential: marker === 0xc0 || marker === 0xc1,
      };
    }
    at += 2 + length;
  }
  return null;
};

/**
 * The average colour of every 8×8 block, read from the DC coefficients only (no inverse DCT is
 * needed for colour shares). Baseline sequential JPEGs with one interleaved scan (grey or YCbCr);
 * null for anything else (progressive, CMYK, broken data).
 */
export const sampleJpeg = (body: Buffer): Rgb[] | null => {
  const quant = new Map<number, number>();
  const dcTables = new Map<number, Huffman>();
  const acTables = new Map<number, Huffman>();
  let components: Component[] = [];
  let width = 0;
  let height = 0;
  let restartInterval = 0;
  for (let at = 2; at + 4 <= body.length;) {
    if (body[at] !== 0xff) return null;
    const marker = body[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd9) return null;
    const length = body.readUInt16BE(at + 2);
    const segment = body.subarray(at + 4, at + 2 + length);
    if (marker === 0xdb) {
      for (let i = 0; i < segment.length;) {
        const precision = segment[i]! >> 4;
        quant.set(segment[i]! & 15, precision === 0 ? segment[i + 1]! : segment.readUInt16BE(i + 1));
        i += 1 + 64 * (precision === 0 ? 1 : 2);
      }
    } else if (marker === 0xc4) {
      for (let i = 0; i < segment.length;) {
        const kind = segment[i]! >> 4;
        const id = segment[i]! & 15;
        const counts = segment.subarray(i + 1, i + 17);
        const total = counts.reduce((sum, n) => sum + n, 0);
        const table = buildHuffman(counts, segment.subarray(i + 17, i + 17 + total));
        (kind === 0 ? dcTables : acTables).set(id, table);
        i += 17 + total;
      }
    } else if (marker === 0xdd) {
      restartInterval = segment.readUInt16BE(0);
    } else if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (marker !== 0xc0 && marker !== 0xc1) return null;
      height = segment.readUInt16BE(1);
      width = segment.readUInt16BE(3);
      components = [];
      for (let i = 0; i < segment[5]!; i += 1) {
        const o = 6 + i * 3;
        components.push({
          id: segment[o]!,
          h: segment[o + 1]! >> 4,
          v: segment[o + 1]! & 15,
          quantTable: segment[o + 2]!,
        });
      }
    } else if (marker === 0xda) {
      const count = segment[0]!;
      if (width === 0 || height === 0 || (components.length !== 1 && components.length !== 3)) return null;
      if (count !== components.length) return null;
      const tables: Array<{ dc: Huffman; ac: Huffman }> = [];
      for (let i = 0; i < count; i += 1) {
        const selector = segment[2 + i * 2]!;
        const dc = dcTables.get(selector >> 4);
        const ac = acTables.get(selector & 15);
        if (dc === undefined || ac === undefined) return null;
        tables.push({ dc, ac });
      }
      try {
        return blockColours(body, at + 2 + length, components, tables, width, height, quant, restartInterval);
      } catch {
        return null;
      }
    }
    at += 2 + length;
  }
  return null;
};

const blockColours = (
  body: Buffer,
  start: number,
  components: Component[],
  tables: Array<{ dc: Huffman; ac: Huffman }>,
  width: number,
  height: number,
  quant: Map<number, number>,
  restartInterval: number,
): Rgb[] => {
  const single = components.length === 1;
  const hMax = single ? 1 : Math.max(...components.map((c) => c.h));
  const vMax = single ? 1 : Math.max(...components.map((c) => c.v));
  const units = components.map((c) => (single ? { h: 1, v: 1 } : { h: c.h, v: c.v }));
  const mcusX = Math.ceil(width / (8 * hMax));
  const mcusY = Math.ceil(height / (8 * vMax));
  const gridWidths = units.map((u) => mcusX * u.h);
  const dc = units.map((u, i) => new Float32Array(gridWidths[i]! * mcusY * u.v));
  const predictors = components.map(() => 0);
  const reader = new BitReader(body, start);
  for (let mcu = 0; mcu < mcusX * mcusY; mcu += 1) {
    if (restartInterval > 0 && mcu > 0 && mcu % restartInterval === 0) {
      reader.restart();
      predictors.fill(0);
    }
    const mx = mcu % mcusX;
    const my = Math.floor(mcu / mcusX);
    for (let c = 0; c < components.length; c += 1) {
      const { h, v } = units[c]!;
      const { dc: dcTable, ac: acTable } = tables[c]!;
      for (let by = 0; by < v; by += 1) {
        for (let bx = 0; bx < h; bx += 1) {
          const size = reader.decode(dcTable);
          predictors[c] = predictors[c]! + extend(reader.receive(size), size);
          dc[c]![(my * v + by) * gridWidths[c]! + mx * h + bx] = predictors[c]!;
          // The AC coefficients are read only to reach the next block.
          for (let k = 1; k < 64; k += 1) {
            const symbol = reader.decode(acTable);
            const run = symbol >> 4;
            const bits = symbol & 15;
            if (bits === 0) {
              if (run !== 15) break;
              k += 15;
            } else {
              k += run;
              reader.receive(bits);
            }
          }
        }
      }
    }
  }
  // A block's mean sample is DC × quantiser / 8, plus the 128 level shift.
  const level = (c: number, x: number, y: number): number => {
    const { h, v } = units[c]!;
    const bx = Math.floor((x * h) / hMax / 8);
    const by = Math.floor((y * v) / vMax / 8);
    const q = quant.get(components[c]!.quantTable) ?? 1;
    return (dc[c]![by * gridWidths[c]! + bx]! * q) / 8 + 128;
  };
  const clamp = (value: number): number => Math.max(0, Math.min(255, Math.round(value)));
  const samples: Rgb[] = [];
  for (let y = 4; y < height; y += 8) {
    for (let x = 4; x < width; x += 8) {
      const luma = level(0, x, y);
      if (single) {
        samples.push({ r: clamp(luma), g: clamp(luma), b: clamp(luma) });
        continue;
      }
      const cb = level(1, x, y) - 128;
      const cr = level(2, x, y) - 128;
      samples.push({
        r: clamp(luma + 1.402 * cr),
        g: clamp(luma - 0.344136 * cb - 0.714136 * cr),
        b: clamp(luma + 1.772 * cb),
      });
    }
  }
  return samples;
};
