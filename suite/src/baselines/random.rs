//! The random agent: the floor.

use super::*;

/// A uniformly random legal template, seeded by the episode: the floor.
#[derive(Clone, Debug, Default)]
pub struct RandomAgent {
    rng: SplitMix64,
}

impl Controller<SuiteWorld> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn capacities(&self) -> Capacities {
        CAPACITIES
    }

    fn needs(&self) -> Needs {
        Needs {
            obs: false,
            mask: true,
        }
    }

    fn begin(&mut self, view: &View<'_, SuiteWorld>) {
        self.rng = SplitMix64(view.world.seed() ^ 0x7261_6e64);
    }

    fn decide(&mut self, view: &View<'_, SuiteWorld>, _: &mut SplitMix64) -> Result<Decision> {
        let legal = view.mask.iter().filter(|&&m| m == 1).count();
        if legal == 0 {
            return Err(Error::new(ErrorKind::Workspace, "no legal template"));
        }
        let pick = (self.rng.next_u64() % legal as u64) as usize;
        let t = view
            .mask
            .iter()
            .enumerate()
            .filter(|(_, m)| **m == 1)
            .nth(pick)
            .map_or(0, |(i, _)| i);
        Ok(Decision::Template(t))
    }
}
