import { useEffect, useState, type FormEvent } from 'react';
import { useAction } from './data';
import { besideField, refusedField } from './refusals';

interface DraftEditorOptions<S, D, P extends object> {
  /** What was loaded; the form starts over from it, and from every save. */
  loaded: S | undefined;
  draftOf(saved: S): D;
  /** The fields the person changed, as the API takes them; empty when nothing changed. */
  patchOf(draft: D, saved: S): P;
  /** The paths of the API's fields the form shows, each beside its own refusal. */
  shownFields(draft: D): Set<string>;
  save(patch: P): Promise<S>;
}

/**
 * A page that edits one record as a form (the seller profile, a promotion; decision 0091): a
 * save sends only what changed, and the API's refusal of a field the form shows is shown
 * beside it (`errorOf`); any other, by the button (`inPlace` false).
 */
export function useDraftEditor<S, D, P extends object>({ loaded, draftOf, patchOf, shownFields, save: send }: DraftEditorOptions<S, D, P>) {
  const [saved, setSaved] = useState<S>();
  const [draft, setDraft] = useState<D>();
  const adopt = (record: S) => {
    setSaved(record);
    setDraft(draftOf(record));
  };
  useEffect(() => {
    if (loaded) adopt(loaded);
  }, [loaded]);
  const save = useAction(send);
  const refused = refusedField(save.error);
  const inPlace = refused !== null && draft !== undefined && shownFields(draft).has(refused);
  const errorOf = (path: string) => (inPlace && refused === path && save.error ? besideField(save.error.detail, path) : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saved === undefined || draft === undefined) return;
    const patch = patchOf(draft, saved);
    if (Object.keys(patch).length === 0) return;
    void save.perform(patch).then((record) => record && adopt(record));
  };
  return { saved, setSaved, draft, setDraft, save, inPlace, errorOf, submit };
}
