"use client";

import { useEffect, useState, type FormEvent } from "react";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code";
import { CopyField } from "@/components/ui/copy";
import { LabeledValue } from "@/components/ui/detail-page";
import { Field, Input, Select } from "@/components/ui/field";
import { FormFooter } from "@/components/ui/form-footer";
import { AlertIcon, ExternalLinkIcon, ShieldIcon } from "@/components/ui/icons";
import { FormErrors } from "@/components/ui/states";
import type { SigningKey } from "@/lib/client/access-hooks";
import { useAssets } from "@/lib/client/asset-hooks";
import { formatDateTime } from "@/lib/client/format";
import { useStreams } from "@/lib/client/hooks";
import { useOrigin } from "@/lib/client/location";
import { testTokenKey } from "@/lib/client/tab-secrets";
import { canSign, importPrivateKey, publicPoint, signViewerToken, viewerClaims, ViewerTokenError, type ViewerClaims } from "@/lib/client/viewer-token";

const LIFETIMES: { seconds: number; label: string }[] = [
  { seconds: 5 * 60, label: "5 minutes" },
  { seconds: 3600, label: "1 hour" },
  { seconds: 24 * 3600, label: "1 day" },
  { seconds: 7 * 24 * 3600, label: "7 days" },
];

/** The value of the playback-ID menu that asks for one typed in. */
const OTHER = "other";

interface Signed {
  token: string;
  claims: ViewerClaims;
  signingKey: SigningKey;
}

/**
 * Signs a viewer token in this browser, to try a private stream or video before a server
 * does it for real. The private key is read here and never sent anywhere. It is kept for this
 * tab (sessionStorage, lib/client/tab-secrets.ts) so that a creator who goes to check the stream and
 * comes back need not paste it again (which would keep it on the clipboard or in a note instead);
 * closing the tab, signing out or "Forget key" drops it.
 */
export function TestTokenCard({ signingKeys, privateKey, className }: { signingKeys: SigningKey[]; privateKey?: string; className?: string }) {
  const streams = useStreams();
  const assets = useAssets();
  const [keyText, setKeyText] = useState(privateKey ?? "");
  const changeKey = (value: string) => {
    setKeyText(value);
    testTokenKey.save(value);
  };
  // After mount (the server has no sessionStorage): a key just created wins over the one kept.
  useEffect(() => {
    if (privateKey) testTokenKey.save(privateKey);
    else setKeyText(testTokenKey.load());
  }, [privateKey]);
  const [choice, setChoice] = useState("");
  const [typedId, setTypedId] = useState("");
  const [lifetime, setLifetime] = useState(LIFETIMES[1].seconds);
  const [signed, setSigned] = useState<Signed | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [pending, setPending] = useState(false);

  const streamList = (streams.data?.pages ?? []).flatMap((p) => p.items).filter((s) => s.playbackId);
  const assetList = (assets.data?.pages ?? []).flatMap((p) => p.items);
  const playbackId = (choice === OTHER ? typedId : choice).trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSigned(null);
    if (!canSign()) {
      setError(new Error("This browser signs only on a secure page: open the dashboard over HTTPS (or on localhost)."));
      return;
    }
    setPending(true);
    try {
      const key = await importPrivateKey(keyText);
      // A token names its key by the public key as the API gave it: find which of the user's keys this is.
      const signingKey = signingKeys.find((k) => publicPoint(k.publicKey) === key.point);
      if (!signingKey) throw new ViewerTokenError("This private key belongs to none of your signing keys (it may have been deleted).");
      const claims = viewerClaims(playbackId, signingKey.publicKey, lifetime);
      setSigned({ token: await signViewerToken(key.key, claims), claims, signingKey });
    } catch (err) {
      setError(err instanceof ViewerTokenError ? err : new Error("Signing failed in this browser."));
    } finally {
      setPending(false);
    }
  };

  return (
    <Card className={className}>
      <CardHeader
        icon={<ShieldIcon className="size-4" />}
        title="Sign a test token"
        description="Try a private stream or video with a viewer token signed right here. The private key stays in this browser: it is never sent to Castline."
      />
      <form onSubmit={submit}>
        <CardBody className="space-y-4">
          <Field
            label="Private key"
            htmlFor="test-token-private-key"
            hint={
              <>
                {privateKey ? "Filled in with the key you just created. " : "The key shown once when you created the signing key. "}
                Kept in this tab until you close it or sign out, never sent to Castline.
                {keyText && (
                  <>
                    {" "}
                    <button type="button" onClick={() => changeKey("")} className="font-medium text-indigo-600 hover:text-indigo-500">
                      Forget key
                    </button>
                  </>
                )}
              </>
            }
          >
            <textarea
              id="test-token-private-key"
              value={keyText}
              onChange={(e) => changeKey(e.target.value)}
              required
              rows={3}
              spellCheck={false}
              autoComplete="off"
              placeholder="LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t…"
              className="block w-full rounded-lg border-0 bg-white px-3 py-2 font-mono text-xs break-all text-zinc-900 shadow-xs ring-1 ring-zinc-300 ring-inset placeholder:text-zinc-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none focus:ring-inset"
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Playback ID" htmlFor="test-token-playback">
              <Select id="test-token-playback" value={choice} onChange={(e) => setChoice(e.target.value)} required>
                <option value="" disabled>
                  Choose a stream or video…
                </option>
                {streamList.length > 0 && (
                  <optgroup label="Streams">
                    {streamList.map((s) => (
                      <option key={s.id} value={s.playbackId}>
                        {s.name}
                      </option>
                    ))}
                  </optgroup>
                )}
                {assetList.length > 0 && (
                  <optgroup label="Videos">
                    {assetList.map((a) => (
                      <option key={a.id} value={a.playbackId}>
                        {a.name}
                      </option>
                    ))}
                  </optgroup>
                )}
                <option value={OTHER}>Another playback ID…</option>
              </Select>
            </Field>
            <Field label="Expires after" htmlFor="test-token-lifetime">
              <Select id="test-token-lifetime" value={lifetime} onChange={(e) => setLifetime(Number(e.target.value))}>
                {LIFETIMES.map((l) => (
                  <option key={l.seconds} value={l.seconds}>
                    {l.label}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          {choice === OTHER && (
            <Field label="Other playback ID" htmlFor="test-token-playback-id">
              <Input
                id="test-token-playback-id"
                value={typedId}
                onChange={(e) => setTypedId(e.target.value)}
                required
                spellCheck={false}
                className="font-mono"
                autoFocus
              />
            </Field>
          )}
          <FormErrors error={error} />
          {signed && <SignedToken signed={signed} />}
        </CardBody>
        <FormFooter submit="Sign token" pending={pending} />
      </form>
    </Card>
  );
}

function SignedToken({ signed: { token, claims, signingKey } }: { signed: Signed }) {
  const origin = useOrigin();
  const playerPath = `/play/${encodeURIComponent(claims.sub)}?jwt=${token}`;
  return (
    <div className="space-y-4 border-t border-zinc-100 pt-4" data-testid="signed-token">
      {signingKey.disabled && (
        <div role="status" className="flex items-start gap-2.5 rounded-lg bg-amber-50 px-3.5 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
          <AlertIcon className="mt-0.5 size-4 shrink-0 text-amber-600" />
          <p>
            <strong className="font-semibold">{signingKey.name} is disabled:</strong> players will refuse this token until you enable the key.
          </p>
        </div>
      )}
      <LabeledValue label="Token" hint={`Signed with ${signingKey.name}; valid until ${formatDateTime(claims.exp * 1000)}.`}>
        <CodeBlock value={token} label="Signed token" copyLabel="Copy token" />
      </LabeledValue>
      <LabeledValue label="Claims">
        <CodeBlock value={JSON.stringify(claims, null, 2)} json label="Token claims" copyLabel="Copy claims" />
      </LabeledValue>
      <LabeledValue
        label="Player link with the token"
        hint={
          <a
            href={playerPath}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1 font-medium text-indigo-600 hover:text-indigo-500"
            data-testid="token-player-link"
          >
            Open the player with this token <ExternalLinkIcon className="size-3.5" />
          </a>
        }
      >
        <CopyField value={`${origin}${playerPath}`} label="player link with the token" />
      </LabeledValue>
    </div>
  );
}
