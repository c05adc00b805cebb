/** Avro schemas through avsc: BINARY is Avro's binary encoding, JSON is Avro's JSON encoding. */
import avro from "avsc";
import { invalid } from "../errors.ts";
import { errorText, utf8Text, type CompiledSchema, type Encoding } from "./compiled.ts";

export function compileAvro(definition: string): CompiledSchema {
  let type: avro.Type;
  try {
    type = avro.Type.forSchema(JSON.parse(definition), { registry: {} });
  } catch (e) {
    throw invalid(`Invalid Avro schema definition: ${errorText(e)}`);
  }
  return new AvroSchema(type);
}

class AvroSchema implements CompiledSchema {
  constructor(readonly type: avro.Type) {}

  check(data: Uint8Array, encoding: Encoding): string | null {
    try {
      if (encoding === "BINARY") this.type.fromBuffer(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      else {
        const text = utf8Text(data);
        if (text === null) return "the data is not valid UTF-8 JSON";
        this.type.fromString(text);
      }
      return null;
    } catch (e) {
      return errorText(e);
    }
  }

  /** Avro's schema resolution both ways: each revision must read what the other wrote. */
  canFollow(previous: CompiledSchema): string | null {
    if (!(previous instanceof AvroSchema)) return "a revision must keep the schema type";
    try {
      this.type.createResolver(previous.type);
      previous.type.createResolver(this.type);
      return null;
    } catch (e) {
      return errorText(e);
    }
  }
}
