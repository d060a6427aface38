/**
 * A software WebAuthn authenticator for the passkey tests: makes the RegistrationResponseJSON and
 * AuthenticationResponseJSON a browser would send (attestation "none", ES256 P-256 key, a
 * signature counter), so the server's real verification runs without a browser.
 */
import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const b64 = (b: Uint8Array | Buffer) => Buffer.from(b).toString("base64url");

/** Flags: UP (user present) 0x01, UV (user verified) 0x04, AT (attested credential data) 0x40. */
function authData(rpID: string, flags: number, counter: number, attested?: Buffer): Buffer {
  const c = Buffer.alloc(4);
  c.writeUInt32BE(counter);
  return Buffer.concat([createHash("sha256").update(rpID).digest(), Buffer.from([flags]), c, attested ?? Buffer.alloc(0)]);
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly key: { privateKey: KeyObject; publicKey: KeyObject } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  counter = 0;

  constructor(
    private readonly rp: { rpID: string; origin: string },
    /** The user handle the credential stores (the registration options' user.id), base64url. */
    public userHandle?: string,
  ) {}

  get id(): string {
    return b64(this.credentialId);
  }

  private clientData(type: string, challenge: string, origin = this.rp.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The answer to registration options with `challenge` (options.challenge). */
  register(challenge: string, opts: { origin?: string; userHandle?: string } = {}) {
    if (opts.userHandle) this.userHandle = opts.userHandle;
    const jwk = this.key.publicKey.export({ format: "jwk" });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, "base64url"))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, "base64url"))],
      ]),
    );
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLen, this.credentialId, Buffer.from(cose)]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(authData(this.rp.rpID, 0x45, this.counter, attested))],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(this.clientData("webauthn.create", challenge, opts.origin)),
        attestationObject: b64(attestationObject),
        transports: ["internal"],
      },
    };
  }

  /** An assertion for `challenge`; `uv` false leaves out user verification. */
  assert(challenge: string, opts: { origin?: string; uv?: boolean; counter?: number } = {}) {
    this.counter = opts.counter ?? this.counter + 1;
    const data = authData(this.rp.rpID, opts.uv === false ? 0x01 : 0x05, this.counter);
    const clientDataJSON = this.clientData("webauthn.get", challenge, opts.origin);
    const signature = createSign("sha256")
      .update(Buffer.concat([data, createHash("sha256").update(clientDataJSON).digest()]))
      .sign(this.key.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(data),
        signature: b64(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
    };
  }
}
