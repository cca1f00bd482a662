/**
 * The memory ledger of a sandboxed run, as JavaScript text for the isolate's main module (CODE-1).
 * Locally workerd puts no memory cap on a loaded isolate, and an allocation loop crashes the whole
 * process, so the bulk allocators are wrapped to charge an estimate of what they take to the run's
 * budget, BEFORE allocating wherever the size is known upfront. In production the platform's 128 MB
 * per isolate stands behind it; the ledger is defence in depth, not a measure of the live heap:
 * nothing is credited back when memory is freed.
 *
 * What is charged: the Array constructor with a length (a Proxy, also set as
 * `Array.prototype.constructor`, so `[].constructor` and species creation in map, slice and splice go
 * through it), `Array.from`, the array methods that grow or copy, `String.prototype.repeat`,
 * `padStart`, `padEnd`, `concat`, `split`, ArrayBuffer, SharedArrayBuffer and the typed arrays (Proxies the same
 * way), the typed-array methods that copy (`slice`, `map`, `filter`, `toSorted`, `toReversed`,
 * `with`), new keys in a Map or Set, JSON.parse and JSON.stringify, TextEncoder.encode,
 * `Object.keys`, `values` and `entries`, `structuredClone` (the top level of what it copies); spread
 * is charged by the guard (instrument.ts), a queued job (`queueMicrotask`, a promise's `then`) by
 * main.js. Not charged: `+` concatenation, object literals, what an iterator yields, and other small
 * allocations, which the tick limit bounds.
 *
 * The text defines `installMemoryLedger(charge)`; it relies on the primordials main.js captures
 * (`apply`, `construct`, `defineProperty`, `getOwnPropertyDescriptor`, `isArray`, `toText`,
 * `OriginalProxy`) and keeps its own originals in closures no program can reach.
 */
// biome-ignore lint/complexity/noUselessStringRaw: raw, so a regex or escape added later reaches main.js as written.
export const MEMORY_LEDGER_SOURCE = String.raw`
function installMemoryLedger(charge) {
  // Estimates: a slot of an array, a UTF-16 code unit, an entry of a Map or Set.
  const SLOT = 8;
  const CHAR = 2;
  const ENTRY = 64;
  // Captured now: a program may replace Math's functions, not these.
  const { max, min, trunc } = Math;
  const iteratorKey = Symbol.iterator;

  const replace = (target, key, value) => {
    const descriptor = getOwnPropertyDescriptor(target, key);
    defineProperty(target, key, {
      value,
      writable: descriptor ? descriptor.writable : true,
      enumerable: descriptor ? descriptor.enumerable : false,
      configurable: descriptor ? descriptor.configurable : true,
    });
  };
  const wrap = (target, key, makeWrapper) => {
    const original = target[key];
    if (typeof original === 'function') replace(target, key, makeWrapper(original));
  };
  const lengthOf = (value) => {
    const length = value === null || value === undefined ? 0 : +value.length;
    return length > 0 ? length : 0;
  };
  const stringOf = (value) => (typeof value === 'string' ? value : toText(value));
  // The span start..end of a list of this length, as Array.prototype.fill and slice read it.
  const relative = (index, length, fallback) => {
    if (index === undefined) return fallback;
    const number = trunc(+index) || 0;
    return number < 0 ? max(length + number, 0) : min(number, length);
  };

  // A constructor wrapped in a Proxy that charges before it builds, and installed everywhere the
  // original could be reached from: the global and the prototype's constructor.
  const chargeConstructor = (name, cost) => {
    const Original = globalThis[name];
    if (typeof Original !== 'function') return;
    // The handler has no prototype: a trap it lacks (get, set, ...) is not looked up on
    // Object.prototype, where a program could plant one and be handed the original constructor.
    const Wrapped = new OriginalProxy(Original, {
      __proto__: null,
      apply(target, self, args) {
        charge(cost(args));
        return apply(target, self, args);
      },
      construct(target, args, newTarget) {
        charge(cost(args));
        return construct(target, args, newTarget === Wrapped ? target : newTarget);
      },
    });
    replace(globalThis, name, Wrapped);
    replace(Original.prototype, 'constructor', Wrapped);
    return Wrapped;
  };

  const OriginalArray = Array;
  const ArrayWrapped = chargeConstructor('Array', (args) =>
    args.length === 1 && typeof args[0] === 'number' ? args[0] * SLOT : 0,
  );
  const ArrayPrototype = OriginalArray.prototype;

  wrap(OriginalArray, 'from', (original) => function from(items, mapper, self) {
    const iterable = items !== null && items !== undefined && typeof items[iteratorKey] === 'function';
    // An array-like is built by constructing this with its length, which the Proxy charges.
    if (!iterable && this !== ArrayWrapped) charge(lengthOf(items) * SLOT);
    const result = apply(original, this, [items, mapper, self]);
    if (iterable) charge(lengthOf(result) * SLOT);
    return result;
  });
  for (const key of ['push', 'unshift']) {
    wrap(ArrayPrototype, key, (original) => function (...items) {
      charge(items.length * SLOT);
      return apply(original, this, items);
    });
  }
  wrap(ArrayPrototype, 'splice', (original) => function splice(...args) {
    charge(max(args.length - 2, 0) * SLOT);
    return apply(original, this, args);
  });
  wrap(ArrayPrototype, 'concat', (original) => function concat(...items) {
    let slots = lengthOf(this);
    for (let i = 0; i < items.length; i += 1) slots += isArray(items[i]) ? items[i].length : 1;
    charge(slots * SLOT);
    return apply(original, this, items);
  });
  wrap(ArrayPrototype, 'fill', (original) => function fill(value, start, end) {
    const length = lengthOf(this);
    charge(max(relative(end, length, length) - relative(start, length, 0), 0) * SLOT);
    return apply(original, this, [value, start, end]);
  });
  // An array's map and slice build their result through its constructor (the Proxy charges it);
  // an array-like's do not.
  wrap(ArrayPrototype, 'map', (original) => function map(mapper, self) {
    if (!isArray(this)) charge(lengthOf(this) * SLOT);
    return apply(original, this, [mapper, self]);
  });
  wrap(ArrayPrototype, 'slice', (original) => function slice(start, end) {
    if (!isArray(this)) {
      const length = lengthOf(this);
      charge(max(relative(end, length, length) - relative(start, length, 0), 0) * SLOT);
    }
    return apply(original, this, [start, end]);
  });
  for (const key of ['filter', 'toSorted', 'toReversed', 'toSpliced', 'with']) {
    wrap(ArrayPrototype, key, (original) => function (...args) {
      charge(lengthOf(this) * SLOT);
      return apply(original, this, args);
    });
  }
  for (const key of ['flat', 'flatMap']) {
    wrap(ArrayPrototype, key, (original) => function (...args) {
      const result = apply(original, this, args);
      charge(lengthOf(result) * SLOT);
      return result;
    });
  }
  wrap(ArrayPrototype, 'join', (original) => function join(separator) {
    const between = separator === undefined ? ',' : stringOf(separator);
    const upfront = max(lengthOf(this) - 1, 0) * between.length * CHAR;
    charge(upfront);
    const result = apply(original, this, [between]);
    charge(result.length * CHAR - upfront);
    return result;
  });

  const StringPrototype = String.prototype;
  wrap(StringPrototype, 'repeat', (original) => function repeat(count) {
    if (this === null || this === undefined) return apply(original, this, [count]);
    const text = stringOf(this);
    const times = +count;
    if (times > 0 && times !== Infinity) charge(text.length * times * CHAR);
    return apply(original, text, [times]);
  });
  for (const key of ['padStart', 'padEnd']) {
    wrap(StringPrototype, key, (original) => function (maxLength, filler) {
      if (this === null || this === undefined) return apply(original, this, [maxLength, filler]);
      const length = +maxLength;
      if (length > 0 && length !== Infinity) charge(length * CHAR);
      return apply(original, this, [length, filler]);
    });
  }
  wrap(StringPrototype, 'concat', (original) => function concat(...parts) {
    if (this === null || this === undefined) return apply(original, this, parts);
    const text = stringOf(this);
    let length = text.length;
    const strings = [];
    for (let i = 0; i < parts.length; i += 1) {
      strings[i] = stringOf(parts[i]);
      length += strings[i].length;
    }
    charge(length * CHAR);
    return apply(original, text, strings);
  });

  wrap(StringPrototype, 'split', (original) => function split(separator, limit) {
    const parts = apply(original, this, [separator, limit]);
    charge(lengthOf(parts) * SLOT);
    return parts;
  });

  const bufferCost = (args) => {
    const options = args[1];
    const resizableTo = options !== null && typeof options === 'object' ? +options.maxByteLength || 0 : 0;
    return max(+args[0] || 0, resizableTo);
  };
  chargeConstructor('ArrayBuffer', bufferCost);
  chargeConstructor('SharedArrayBuffer', bufferCost);
  for (const key of ['transfer', 'transferToFixedLength']) {
    wrap(ArrayBuffer.prototype, key, (original) => function (newLength) {
      if (newLength !== undefined) charge(+newLength - this.byteLength);
      return apply(original, this, [newLength]);
    });
  }
  const typedArrays = [
    'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
    'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
  ];
  for (const name of typedArrays) {
    const Original = globalThis[name];
    if (typeof Original !== 'function') continue;
    const bytes = Original.BYTES_PER_ELEMENT;
    chargeConstructor(name, (args) => {
      const source = args[0];
      if (typeof source === 'number') return source * bytes;
      // A view onto a buffer takes no new memory; a list of values (an array, a typed array) is copied.
      if (source !== null && typeof source === 'object' && 'length' in source) {
        return lengthOf(source) * bytes;
      }
      return 0;
    });
  }

  // A typed array's copies: as many bytes as the source (filter at most as many).
  const typedMethods = Object.getPrototypeOf(Uint8Array.prototype);
  for (const key of ['slice', 'map', 'filter', 'toSorted', 'toReversed', 'with']) {
    wrap(typedMethods, key, (original) => function (...args) {
      charge(+this.byteLength || 0);
      return apply(original, this, args);
    });
  }

  const mapHas = Map.prototype.has;
  wrap(Map.prototype, 'set', (original) => function set(key, value) {
    if (!apply(mapHas, this, [key])) charge(ENTRY);
    return apply(original, this, [key, value]);
  });
  const setHas = Set.prototype.has;
  wrap(Set.prototype, 'add', (original) => function add(value) {
    if (!apply(setHas, this, [value])) charge(ENTRY);
    return apply(original, this, [value]);
  });

  // Listing an object's keys builds an array (and, for entries, a pair per key).
  for (const [key, perItem] of [['keys', SLOT], ['values', SLOT], ['entries', SLOT * 5]]) {
    wrap(Object, key, (original) => (target) => {
      const list = apply(original, Object, [target]);
      charge(lengthOf(list) * perItem);
      return list;
    });
  }
  // A deep copy: what is known of the value's size upfront is charged before it is made.
  wrap(globalThis, 'structuredClone', (original) => function structuredClone(value, options) {
    if (typeof value === 'string') charge(value.length * CHAR);
    else if (isArray(value)) charge(value.length * SLOT);
    else if (value !== null && typeof value === 'object' && typeof value.byteLength === 'number') charge(value.byteLength);
    return apply(original, globalThis, [value, options]);
  });

  // Parsed values take more than their text: twice its UTF-16 size is charged.
  wrap(JSON, 'parse', (original) => function parse(text, reviver) {
    const source = stringOf(text);
    charge(source.length * CHAR * 2);
    return apply(original, JSON, [source, reviver]);
  });
  wrap(JSON, 'stringify', (original) => function stringify(value, replacer, space) {
    const result = apply(original, JSON, [value, replacer, space]);
    if (typeof result === 'string') charge(result.length * CHAR);
    return result;
  });
  if (typeof TextEncoder === 'function') {
    wrap(TextEncoder.prototype, 'encode', (original) => function encode(input) {
      const text = input === undefined ? '' : stringOf(input);
      charge(text.length);
      const bytes = apply(original, this, [text]);
      charge(bytes.byteLength - text.length);
      return bytes;
    });
  }
}
`;
