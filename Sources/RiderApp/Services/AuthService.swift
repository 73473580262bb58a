import RIBs

/// Who is signed in. The only thing that changes the session stream.
final class AuthService {
    let session = ModelStream<String?>(nil)

    func signIn(as name: String) {
        session.sendIfChanged(name)
    }
}
