//! /auth: Sign In (default) and Sign Up tabs; redirects to / when signed in or after a successful submit.
import { useState } from "react";
import type { FormEvent } from "react";
import { Navigate, useNavigate } from "react-router-dom";
import { useLogin, useRegister, useRegistration, useUser } from "../hooks/auth";
import { useDocumentTitle } from "../hooks/title";
import { useToast } from "../components/toast/toast";
import { IconActivity, IconChart, IconUsers, IconZap } from "../components/ui/icons";
import { Button, FullPageSpinner, Input, Label } from "../components/ui/primitives";
import { Tabs } from "../components/ui/Tabs";
import { serverMessage } from "../lib/errors";

type Tab = "signin" | "signup";

export default function AuthPage() {
  useDocumentTitle();
  const user = useUser();
  const [tab, setTab] = useState<Tab>("signin");
  if (user.isPending) return <FullPageSpinner />;
  if (user.data) return <Navigate to="/" replace />;

  return (
    <div className="grid min-h-screen bg-gray-950 lg:grid-cols-2">
      <div className="relative hidden overflow-hidden border-r border-gray-800 bg-gradient-to-br from-indigo-950 via-gray-950 to-gray-950 p-12 lg:flex lg:flex-col lg:justify-between">
        <div className="absolute -left-32 -top-32 h-96 w-96 rounded-full bg-indigo-600/20 blur-3xl" />
        <div className="absolute -bottom-40 right-0 h-96 w-96 rounded-full bg-sky-600/10 blur-3xl" />
        <div className="relative flex items-center gap-2.5">
          <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-gradient-to-br from-indigo-500 to-sky-500 text-white">
            <IconActivity className="h-5 w-5" />
          </span>
          <span className="text-lg font-semibold text-white">tracker</span>
        </div>
        <div className="relative">
          <h2 className="text-4xl font-semibold tracking-tight text-white">Real-time Website Analytics</h2>
          <p className="mt-3 max-w-md text-lg text-gray-400">Track your visitors, monitor performance, and gain insights.</p>
          <ul className="mt-10 space-y-4 text-sm text-gray-300">
            <li className="flex items-center gap-3"><IconActivity className="h-4 w-4 text-indigo-400" />Live visitors the moment they arrive</li>
            <li className="flex items-center gap-3"><IconChart className="h-4 w-4 text-indigo-400" />Page views, referrers and countries at a glance</li>
            <li className="flex items-center gap-3"><IconUsers className="h-4 w-4 text-indigo-400" />Identified companies with lead scores</li>
            <li className="flex items-center gap-3"><IconZap className="h-4 w-4 text-indigo-400" />Custom events and conversions</li>
          </ul>
        </div>
        <p className="relative text-xs text-gray-500">Self-hosted. Your data stays on your server.</p>
      </div>
      <div className="flex items-center justify-center p-6">
        <div className="w-full max-w-sm">
          <div className="mb-8 text-center">
            <h1 className="text-2xl font-semibold text-white">Welcome to tracker</h1>
            <p className="mt-1 text-sm text-gray-400">Website analytics made simple</p>
          </div>
          <div className="mb-6 flex justify-center">
            <Tabs<Tab>
              value={tab}
              onChange={setTab}
              items={[
                { value: "signin", label: "Sign In" },
                { value: "signup", label: "Sign Up" },
              ]}
            />
          </div>
          {tab === "signin" ? <SignInForm /> : <SignUpForm />}
        </div>
      </div>
    </div>
  );
}

function SignInForm() {
  const login = useLogin();
  const navigate = useNavigate();
  const { toast } = useToast();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  // Set once the server answered that this account needs a second factor.
  const [askCode, setAskCode] = useState(false);
  const [code, setCode] = useState("");

  function submit(e: FormEvent) {
    e.preventDefault();
    login.mutate(
      askCode ? { email, password, code } : { email, password },
      {
        onSuccess: (data) => {
          if ("twoFactorRequired" in data) {
            setAskCode(true);
            return;
          }
          navigate("/", { replace: true });
        },
        onError: (err) => toast({ title: "Login failed", description: serverMessage(err), variant: "destructive" }),
      },
    );
  }

  if (askCode) {
    return (
      <form onSubmit={submit} className="space-y-4" aria-label="Two-Factor Authentication">
        <p className="text-sm text-gray-400">Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
        <div>
          <Label htmlFor="signin-code">Authentication Code</Label>
          <Input id="signin-code" autoComplete="one-time-code" autoFocus required placeholder="123456" value={code} onChange={(e) => setCode(e.target.value)} />
        </div>
        <Button type="submit" className="w-full" disabled={login.isPending}>
          {login.isPending ? "Verifying..." : "Verify"}
        </Button>
        <Button variant="ghost" className="w-full" onClick={() => { setAskCode(false); setCode(""); }}>
          Back
        </Button>
      </form>
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Sign In">
      <div>
        <Label htmlFor="signin-email">Email</Label>
        <Input id="signin-email" type="email" autoComplete="email" placeholder="you@example.com" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div>
        <Label htmlFor="signin-password">Password</Label>
        <Input id="signin-password" type="password" autoComplete="current-password" placeholder="Enter your password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      <Button type="submit" className="w-full" disabled={login.isPending}>
        {login.isPending ? "Signing in..." : "Sign In"}
      </Button>
    </form>
  );
}

function SignUpForm() {
  const registration = useRegistration();
  if (registration.data && !registration.data.open) {
    return (
      <p className="text-sm text-slate-400" role="status">
        Sign-up is closed on this server: ask its operator to create your account (<code>tracker users add</code>).
      </p>
    );
  }
  return <OpenSignUpForm />;
}

function OpenSignUpForm() {
  const register = useRegister();
  const navigate = useNavigate();
  const { toast } = useToast();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");

  function submit(e: FormEvent) {
    e.preventDefault();
    register.mutate(
      { email, password },
      {
        onSuccess: () => navigate("/", { replace: true }),
        onError: (err) => toast({ title: "Registration failed", description: serverMessage(err), variant: "destructive" }),
      },
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Sign Up">
      <div>
        <Label htmlFor="signup-email">Email</Label>
        <Input id="signup-email" type="email" autoComplete="email" placeholder="you@example.com" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div>
        <Label htmlFor="signup-password">Password</Label>
        <Input
          id="signup-password"
          type="password"
          autoComplete="new-password"
          placeholder="Create a password (min 6 characters)"
          required
          minLength={6}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <Button type="submit" className="w-full" disabled={register.isPending}>
        {register.isPending ? "Creating account..." : "Create Account"}
      </Button>
    </form>
  );
}
