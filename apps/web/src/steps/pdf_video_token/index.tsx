import { FaceVideo } from '../video_token/FaceVideo';

export function Component() {
  return <FaceVideo flow="link" />;
}
