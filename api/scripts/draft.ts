/** A script as the model wrote it, before checking: the unit the constraint checker works on. */
export interface Draft {
  title: string | null;
  description: string | null;
  scenes: { voiceText: string; imagePrompt: string | null }[];
}

/** One broken constraint of one draft, named so a re-prompt can tell the model what to fix. */
export interface Violation {
  constraint:
    | 'format'
    | 'sceneCount'
    | 'wordsPerScene'
    | 'imagePrompt'
    | 'title'
    | 'description'
    | 'language'
    | 'verbatim';
  /** Where in the draft, in the spec's path form (`scenes[2].voiceText`); empty for the whole draft. */
  path: string;
  message: string;
}
